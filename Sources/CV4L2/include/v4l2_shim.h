// A non-variadic face of libv4l2 for Swift.
//
// Swift cannot call C variadic functions (v4l2_open, v4l2_ioctl) nor import function-like
// macros (_IOWR-built VIDIOC_* requests, v4l2_fourcc-built V4L2_PIX_FMT_*), so this header
// wraps the former and exports the latter as constants. Everything else (the v4l2_* structs,
// plain numeric V4L2_* macros) Swift imports from <linux/videodev2.h> directly.
#ifndef LORGNETTE_V4L2_SHIM_H
#define LORGNETTE_V4L2_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <linux/videodev2.h>

/// Opens `path` read-write, non-blocking and close-on-exec through libv4l2, failing with
/// ENOTTY (without libv4l2 printing anything) when it is not a V4L2 device. With
/// `allow_conversion` libv4l2 also offers emulated formats (RGB24, BGR24, YU12, YV12) that it
/// converts from the device's native ones; without it the device is seen exactly as it is.
/// Returns the fd or -1 with errno set.
int lv_open(const char *path, int allow_conversion);
/// v4l2_ioctl, retried on EINTR. Returns 0 or -1 with errno set.
int lv_ioctl(int fd, unsigned long request, void *arg);
/// v4l2_mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, offset); NULL on failure.
void *lv_mmap(int fd, size_t length, int64_t offset);
int lv_munmap(void *start, size_t length);
int lv_close(int fd);

/// Opens `path` read-write, blocking and close-on-exec *without* libv4l2 (its conversions are for
/// capture; an output device is written as it is). Fails with ENOTTY when VIDIOC_QUERYCAP is not
/// understood. Returns the fd or -1 with errno set. Close with close(2).
int lv_open_output(const char *path);
/// ioctl(2) on a plain fd, retried on EINTR. Returns 0 or -1 with errno set.
int lv_raw_ioctl(int fd, unsigned long request, void *arg);

/// CLOCK_MONOTONIC in nanoseconds: the clock V4L2 buffer timestamps use when they carry
/// V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC.
int64_t lv_monotonic_ns(void);

/// memrchr(3) (a GNU extension Swift's Glibc module does not export): the last `byte` in the
/// first `length` bytes of `data`, or NULL. Finds an MJPEG frame's end marker behind padding.
const void *lv_memrchr(const void *data, int byte, size_t length);

extern const unsigned long LV_VIDIOC_QUERYCAP;
extern const unsigned long LV_VIDIOC_ENUM_FMT;
extern const unsigned long LV_VIDIOC_ENUM_FRAMESIZES;
extern const unsigned long LV_VIDIOC_ENUM_FRAMEINTERVALS;
extern const unsigned long LV_VIDIOC_G_FMT;
extern const unsigned long LV_VIDIOC_S_FMT;
extern const unsigned long LV_VIDIOC_TRY_FMT;
extern const unsigned long LV_VIDIOC_G_PARM;
extern const unsigned long LV_VIDIOC_S_PARM;
extern const unsigned long LV_VIDIOC_REQBUFS;
extern const unsigned long LV_VIDIOC_QUERYBUF;
extern const unsigned long LV_VIDIOC_QBUF;
extern const unsigned long LV_VIDIOC_DQBUF;
extern const unsigned long LV_VIDIOC_STREAMON;
extern const unsigned long LV_VIDIOC_STREAMOFF;
extern const unsigned long LV_VIDIOC_QUERYCTRL;
extern const unsigned long LV_VIDIOC_G_CTRL;
extern const unsigned long LV_VIDIOC_S_CTRL;

extern const uint32_t LV_PIX_FMT_MJPEG;
extern const uint32_t LV_PIX_FMT_JPEG;
extern const uint32_t LV_PIX_FMT_YUYV;
extern const uint32_t LV_PIX_FMT_RGB24;
extern const uint32_t LV_PIX_FMT_BGR24;
extern const uint32_t LV_PIX_FMT_GREY;
extern const uint32_t LV_PIX_FMT_YUV420;

extern const uint32_t LV_BUF_TYPE_VIDEO_CAPTURE;
extern const uint32_t LV_BUF_TYPE_VIDEO_OUTPUT;
extern const uint32_t LV_COLORSPACE_SMPTE170M;
extern const uint32_t LV_COLORSPACE_JPEG;
extern const uint32_t LV_MEMORY_MMAP;
extern const uint32_t LV_FIELD_ANY;
extern const uint32_t LV_FIELD_NONE;
extern const uint32_t LV_BUF_FLAG_ERROR;
extern const uint32_t LV_BUF_FLAG_TIMESTAMP_MASK;
extern const uint32_t LV_BUF_FLAG_TIMESTAMP_MONOTONIC;

extern const uint32_t LV_CAP_VIDEO_CAPTURE;
extern const uint32_t LV_CAP_VIDEO_CAPTURE_MPLANE;
extern const uint32_t LV_CAP_VIDEO_OUTPUT;
extern const uint32_t LV_CAP_VIDEO_OUTPUT_MPLANE;
extern const uint32_t LV_CAP_STREAMING;
extern const uint32_t LV_CAP_READWRITE;
extern const uint32_t LV_CAP_DEVICE_CAPS;
extern const uint32_t LV_CAP_TIMEPERFRAME;

extern const uint32_t LV_FMT_FLAG_COMPRESSED;
extern const uint32_t LV_FMT_FLAG_EMULATED;
extern const uint32_t LV_FRMSIZE_TYPE_DISCRETE;
extern const uint32_t LV_FRMSIZE_TYPE_CONTINUOUS;
extern const uint32_t LV_FRMSIZE_TYPE_STEPWISE;
extern const uint32_t LV_FRMIVAL_TYPE_DISCRETE;
extern const uint32_t LV_FRMIVAL_TYPE_CONTINUOUS;
extern const uint32_t LV_FRMIVAL_TYPE_STEPWISE;

extern const uint32_t LV_CTRL_FLAG_NEXT_CTRL;
extern const uint32_t LV_CTRL_FLAG_DISABLED;
extern const uint32_t LV_CTRL_TYPE_BUTTON;
extern const uint32_t LV_CTRL_TYPE_CTRL_CLASS;

#endif
