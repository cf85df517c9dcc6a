# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# Shared part of the end-to-end ffmpeg tests (run.sh, gpu.sh), sourced
# after they set: top (repository root), ffmpeg, features, models and
# fate_name (the prefix of their messages). It provides
#   w                      the work directory (VG_FATE_WORK, or a temporary
#                          one removed on exit)
#   pass NAME, fail NAME [FILE...]
#                          count and print a result (fail shows the files'
#                          last lines); n_pass, n_fail
#   cmp                    the exact JSON comparer (JSONCMP, or built here
#                          with ${CC:-cc} from tests/fate/jsoncmp.c; not
#                          when fate_no_jsoncmp is set)
#   required               the metrics every log must have
#   feature_opt, model_opt the filter's feature= and model= values
#   ff ARGS...             ffmpeg, quiet and non-interactive
#   require_gpu            exits 77 (or, with VG_REQUIRE_GPU=1, fails and
#                          exits 1) unless ffmpeg can use a CUDA device
#   refused LABEL PATTERN COMMAND...
#                          COMMAND must exit non-zero and print PATTERN on
#                          stderr ($w/refused.err)
#   run_refused NAME TAG MESSAGE FFMPEG-ARGS...
#                          ffmpeg must fail and print MESSAGE ($w/TAG.out)
#   scalecmp_build         builds tests/fate/scalecmp against the libswscale
#                          of ffmpeg's build tree (its src/ and obj/ beside
#                          it, as tools/build-ffmpeg.sh leaves them) into
#                          $w/scalecmp; scalecmp_gen runs its generated
#                          cases as one result

if [ -n "${VG_FATE_WORK:-}" ]; then
    w=$VG_FATE_WORK
    mkdir -p "$w"
else
    w=$(mktemp -d "${TMPDIR:-/tmp}/vg-$fate_name.XXXXXX")
    trap 'rm -rf "$w"' EXIT INT TERM
fi

n_pass=0
n_fail=0
pass() {
    n_pass=$((n_pass + 1))
    echo "PASS $1"
}
fail() {
    n_fail=$((n_fail + 1))
    echo "FAIL $1"
    shift
    for f in "$@"; do
        [ -f "$f" ] && tail -n 15 "$f" | sed 's/^/    /'
    done
}

cmp=${JSONCMP:-}
if [ -z "$cmp" ] && [ -z "${fate_no_jsoncmp:-}" ]; then
    cmp=$w/jsoncmp
    # shellcheck disable=SC2046
    ${CC:-cc} -std=c11 -O2 $(pkg-config --cflags json-c) \
        "$top/tests/fate/jsoncmp.c" -o "$cmp" $(pkg-config --libs json-c) || {
        echo "$fate_name: cannot build tests/fate/jsoncmp.c (or set JSONCMP)" >&2
        echo "0 passed, 1 failed"
        exit 1
    }
fi

required=
feature_opt=
for f in $features; do
    case $f in
    psnr)   required="$required psnr_y psnr_cb psnr_cr" ;;
    motion) required="$required integer_motion2 integer_motion3" ;;
    vif)    required="$required integer_vif_scale0 integer_vif_scale1 integer_vif_scale2 integer_vif_scale3" ;;
    adm)    required="$required integer_adm2 integer_adm_scale0 integer_adm_scale1 integer_adm_scale2 integer_adm_scale3" ;;
    *) echo "$fate_name: unknown feature $f" >&2; exit 1 ;;
    esac
    feature_opt="$feature_opt${feature_opt:+|}name=$f"
done
model_opt=
for m in $models; do
    case $m in
    vmaf_v0.6.1) required="$required vmaf"; model_opt="version=vmaf_v0.6.1" ;;
    *) echo "$fate_name: only vmaf_v0.6.1 may be listed as a model" >&2; exit 1 ;;
    esac
done

ff() {
    "$ffmpeg" -nostdin -hide_banner -nostats -y "$@"
}

require_gpu() {
    if "$ffmpeg" -hide_banner -init_hw_device cuda=gpu -f rawvideo \
            -video_size 16x16 -pix_fmt yuv420p -i /dev/zero -frames:v 1 \
            -vf hwupload_cuda -f null - > "$w/probe.out" 2>&1; then
        return 0
    fi
    if [ "${VG_REQUIRE_GPU:-0}" = 1 ]; then
        fail "$fate_name: no usable CUDA device" "$w/probe.out"
        echo "$fate_name: $n_pass passed, $n_fail failed"
        exit 1
    fi
    echo "SKIP $fate_name: no usable CUDA device"
    exit 77
}

# refused LABEL PATTERN COMMAND...: exit status 1 and PATTERN on stderr
refused() {
    label=$1 pat=$2
    shift 2
    if "$@" > /dev/null 2> "$w/refused.err"; then
        fail "$label: accepted"
    elif grep -q "$pat" "$w/refused.err"; then
        pass "$label: refused ($(head -1 "$w/refused.err"))"
    else
        cat "$w/refused.err"
        fail "$label: refused without the message /$pat/"
    fi
}

# run_refused NAME TAG MESSAGE FFMPEG-ARGS...: ffmpeg must fail and print MESSAGE
run_refused() {
    name=$1 tag=$2 msg=$3
    shift 3
    if ff "$@" > "$w/$tag.out" 2>&1; then
        fail "$name: ffmpeg succeeded" "$w/$tag.out"
    elif grep -q "$msg" "$w/$tag.out"; then
        pass "$name: refused with a message"
    else
        fail "$name: no message" "$w/$tag.out"
    fi
}

scalecmp_build() {
    ffdir=$(dirname "$ffmpeg")
    [ -f "$ffdir/obj/libswscale/libswscale.a" ] || return 1
    # the library's floating-point flags: no contraction into FMA
    ${CC:-cc} -std=gnu11 -O2 -ffp-contract=off -fno-fast-math -I"$top" -I"$top/include" -I"$ffdir/src" \
        -I"$ffdir/obj" -o "$w/scalecmp" "$top/tests/fate/scalecmp.c" \
        "$top/common/scale.c" "$top/common/image.c" "$top/common/picture.c" \
        "$top/common/log.c" "$ffdir/obj/libswscale/libswscale.a" \
        "$ffdir/obj/libavutil/libavutil.a" -lm -lpthread -ldl \
        > "$w/scalecmp.build" 2>&1
}

scalecmp_gen() {
    label=$1
    if ! scalecmp_build; then
        fail "$label: cannot build tests/fate/scalecmp against $(dirname "$ffmpeg")" "$w/scalecmp.build"
    elif "$w/scalecmp" > "$w/scalecmp.gen" 2>&1; then
        pass "$label: $(grep -c '^PASS' "$w/scalecmp.gen") cases (algorithms x formats x sizes x patterns), every sample equal to libswscale's; $(grep -c '^SKIP' "$w/scalecmp.gen") refused reductions"
    else
        fail "$label: differs from libswscale" "$w/scalecmp.gen"
    fi
}
