/* score REF.yuv DIS.yuv WIDTH HEIGHT: the VMAF of two raw 8-bit 4:2:0 files */
#include <stdio.h>
#include <stdlib.h>
#include <vmafgpu.h>

int main(int argc, char **argv)
{
    VgConfig cfg = { .backend =
                         VG_BACKEND_AUTO }; /* CUDA when a GPU is usable */
    VgContext *ctx;
    VgPicture pic[2];
    unsigned char *buf[2];
    FILE *f[2];
    double vmaf;

    if (argc != 5 || vg_context_create(&ctx, &cfg) < 0)
        return 1;
    unsigned w = atoi(argv[3]), h = atoi(argv[4]), cw = (w + 1) / 2,
             ch = (h + 1) / 2;
    size_t size = (size_t)w * h + 2 * (size_t)cw * ch;
    for (int i = 0; i < 2; i++) {
        f[i] = fopen(argv[1 + i], "rb");
        buf[i] = malloc(size);
        pic[i] = (VgPicture){ .fmt = VG_PIX_FMT_YUV420P,
                              .width = w,
                              .height = h,
                              .bitdepth = 8,
                              .memory = VG_MEMORY_HOST,
                              .data = { buf[i], buf[i] + w * h,
                                        buf[i] + w * h + cw * ch },
                              .stride = { w, cw, cw } };
    }
    int ret = f[0] && f[1] && buf[0] && buf[1]
                  ? vg_use_model(ctx, "version=vmaf_v0.6.1")
                  : -1;
    while (!ret && fread(buf[0], size, 1, f[0]) && fread(buf[1], size, 1, f[1]))
        ret = vg_submit(ctx, &pic[0], &pic[1]); /* one frame pair */
    if (!ret && !(ret = vg_flush(ctx)) &&
        !(ret = vg_get_pooled(ctx, "vmaf", VG_POOL_MEAN, &vmaf)))
        printf("VMAF score: %f\n", vmaf);
    vg_context_destroy(&ctx);
    for (int i = 0; i < 2; i++) {
        if (f[i])
            fclose(f[i]);
        free(buf[i]);
    }
    return ret < 0;
}
