/* score REF.yuv DIS.yuv WIDTH HEIGHT: the VMAF of two raw 8-bit 4:2:0 files */
#include <stdio.h>
#include <stdlib.h>
#include <vmafgpu.h>

int main(int argc, char **argv)
{
    VgConfig cfg = { .backend = VG_BACKEND_AUTO }; /* CUDA with a GPU */
    VgContext *ctx = NULL;
    VgPicture pic[2];
    FILE *f[2] = { NULL, NULL };
    double vmaf;
    if (argc != 5)
        return 1;
    unsigned w = atoi(argv[3]), h = atoi(argv[4]),
             c = (w + 1) / 2 * ((h + 1) / 2);
    size_t n = (size_t)w * h + 2 * (size_t)c;
    unsigned char *buf = malloc(2 * n);
    if (!buf)
        return 1;
    for (int i = 0; i < 2; i++) {
        unsigned char *y = buf + i * n, *u = y + (size_t)w * h;
        f[i] = fopen(argv[1 + i], "rb");
        pic[i] = (VgPicture){ .fmt = VG_PIX_FMT_YUV420P,
                              .bitdepth = 8,
                              .width = w,
                              .height = h,
                              .data = { y, u, u + c },
                              .stride = { w, (w + 1) / 2, (w + 1) / 2 } };
    }
    int ret = !f[0] || !f[1] || vg_context_create(&ctx, &cfg) < 0 ||
              vg_use_model(ctx, "version=vmaf_v0.6.1") < 0;
    while (!ret && fread(buf, n, 1, f[0]) && fread(buf + n, n, 1, f[1]))
        ret = vg_submit(ctx, &pic[0], &pic[1]) < 0; /* one frame pair */
    if (!ret && !(ret = vg_flush(ctx) < 0 ||
                        vg_get_pooled(ctx, "vmaf", VG_POOL_MEAN, &vmaf) < 0))
        printf("VMAF score: %f\n", vmaf);
    vg_context_destroy(&ctx);
    for (int i = 0; i < 2; i++)
        if (f[i])
            fclose(f[i]);
    free(buf);
    return ret;
}
