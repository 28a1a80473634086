#define _GNU_SOURCE
#include "v4l2_shim.h"

#include <errno.h>
#include <fcntl.h>
#include <libv4l2.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

int lv_open(const char *path, int allow_conversion) {
    int raw = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (raw < 0) return -1;
    // Ask QUERYCAP ourselves first: libv4l2 prints its own complaints to stderr for anything
    // that is not a V4L2 device, and we report that case with a clear error of our own.
    struct v4l2_capability cap;
    memset(&cap, 0, sizeof cap);
    int r;
    do {
        r = ioctl(raw, VIDIOC_QUERYCAP, &cap);
    } while (r == -1 && errno == EINTR);
    if (r < 0) {
        int saved = errno;
        close(raw);
        errno = saved;
        return -1;
    }
    // Without V4L2_DISABLE_CONVERSION libv4l2 also offers emulated formats it converts to.
    int fd = v4l2_fd_open(raw, allow_conversion ? 0 : V4L2_DISABLE_CONVERSION);
    if (fd < 0) {
        int saved = errno;
        close(raw);
        errno = saved;
        return -1;
    }
    return fd;
}

int lv_ioctl(int fd, unsigned long request, void *arg) {
    int r;
    do {
        r = v4l2_ioctl(fd, request, arg);
    } while (r == -1 && errno == EINTR);
    return r;
}

void *lv_mmap(int fd, size_t length, int64_t offset) {
    void *p = v4l2_mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (int64_t)offset);
    return p == MAP_FAILED ? NULL : p;
}

int lv_munmap(void *start, size_t length) { return v4l2_munmap(start, length); }

int lv_close(int fd) { return v4l2_close(fd); }

int lv_open_output(const char *path) {
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) return -1;
    struct v4l2_capability cap;
    memset(&cap, 0, sizeof cap);
    if (lv_raw_ioctl(fd, VIDIOC_QUERYCAP, &cap) < 0) {
        int saved = errno;
        close(fd);
        errno = saved == EINVAL ? ENOTTY : saved;
        return -1;
    }
    return fd;
}

int lv_raw_ioctl(int fd, unsigned long request, void *arg) {
    int r;
    do {
        r = ioctl(fd, request, arg);
    } while (r == -1 && errno == EINTR);
    return r;
}

int64_t lv_monotonic_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

const void *lv_memrchr(const void *data, int byte, size_t length) { return memrchr(data, byte, length); }

const unsigned long LV_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
const unsigned long LV_VIDIOC_ENUM_FMT = VIDIOC_ENUM_FMT;
const unsigned long LV_VIDIOC_ENUM_FRAMESIZES = VIDIOC_ENUM_FRAMESIZES;
const unsigned long LV_VIDIOC_ENUM_FRAMEINTERVALS = VIDIOC_ENUM_FRAMEINTERVALS;
const unsigned long LV_VIDIOC_G_FMT = VIDIOC_G_FMT;
const unsigned long LV_VIDIOC_S_FMT = VIDIOC_S_FMT;
const unsigned long LV_VIDIOC_TRY_FMT = VIDIOC_TRY_FMT;
const unsigned long LV_VIDIOC_G_PARM = VIDIOC_G_PARM;
const unsigned long LV_VIDIOC_S_PARM = VIDIOC_S_PARM;
const unsigned long LV_VIDIOC_REQBUFS = VIDIOC_REQBUFS;
const unsigned long LV_VIDIOC_QUERYBUF = VIDIOC_QUERYBUF;
const unsigned long LV_VIDIOC_QBUF = VIDIOC_QBUF;
const unsigned long LV_VIDIOC_DQBUF = VIDIOC_DQBUF;
const unsigned long LV_VIDIOC_STREAMON = VIDIOC_STREAMON;
const unsigned long LV_VIDIOC_STREAMOFF = VIDIOC_STREAMOFF;
const unsigned long LV_VIDIOC_QUERYCTRL = VIDIOC_QUERYCTRL;
const unsigned long LV_VIDIOC_G_CTRL = VIDIOC_G_CTRL;
const unsigned long LV_VIDIOC_S_CTRL = VIDIOC_S_CTRL;

const uint32_t LV_PIX_FMT_MJPEG = V4L2_PIX_FMT_MJPEG;
const uint32_t LV_PIX_FMT_JPEG = V4L2_PIX_FMT_JPEG;
const uint32_t LV_PIX_FMT_YUYV = V4L2_PIX_FMT_YUYV;
const uint32_t LV_PIX_FMT_RGB24 = V4L2_PIX_FMT_RGB24;
const uint32_t LV_PIX_FMT_BGR24 = V4L2_PIX_FMT_BGR24;
const uint32_t LV_PIX_FMT_GREY = V4L2_PIX_FMT_GREY;
const uint32_t LV_PIX_FMT_YUV420 = V4L2_PIX_FMT_YUV420;

const uint32_t LV_BUF_TYPE_VIDEO_CAPTURE = V4L2_BUF_TYPE_VIDEO_CAPTURE;
const uint32_t LV_BUF_TYPE_VIDEO_OUTPUT = V4L2_BUF_TYPE_VIDEO_OUTPUT;
const uint32_t LV_COLORSPACE_SMPTE170M = V4L2_COLORSPACE_SMPTE170M;
const uint32_t LV_COLORSPACE_JPEG = V4L2_COLORSPACE_JPEG;
const uint32_t LV_MEMORY_MMAP = V4L2_MEMORY_MMAP;
const uint32_t LV_FIELD_ANY = V4L2_FIELD_ANY;
const uint32_t LV_FIELD_NONE = V4L2_FIELD_NONE;
const uint32_t LV_BUF_FLAG_ERROR = V4L2_BUF_FLAG_ERROR;
const uint32_t LV_BUF_FLAG_TIMESTAMP_MASK = V4L2_BUF_FLAG_TIMESTAMP_MASK;
const uint32_t LV_BUF_FLAG_TIMESTAMP_MONOTONIC = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC;

const uint32_t LV_CAP_VIDEO_CAPTURE = V4L2_CAP_VIDEO_CAPTURE;
const uint32_t LV_CAP_VIDEO_CAPTURE_MPLANE = V4L2_CAP_VIDEO_CAPTURE_MPLANE;
const uint32_t LV_CAP_VIDEO_OUTPUT = V4L2_CAP_VIDEO_OUTPUT;
const uint32_t LV_CAP_VIDEO_OUTPUT_MPLANE = V4L2_CAP_VIDEO_OUTPUT_MPLANE;
const uint32_t LV_CAP_STREAMING = V4L2_CAP_STREAMING;
const uint32_t LV_CAP_READWRITE = V4L2_CAP_READWRITE;
const uint32_t LV_CAP_DEVICE_CAPS = V4L2_CAP_DEVICE_CAPS;
const uint32_t LV_CAP_TIMEPERFRAME = V4L2_CAP_TIMEPERFRAME;

const uint32_t LV_FMT_FLAG_COMPRESSED = V4L2_FMT_FLAG_COMPRESSED;
const uint32_t LV_FMT_FLAG_EMULATED = V4L2_FMT_FLAG_EMULATED;
const uint32_t LV_FRMSIZE_TYPE_DISCRETE = V4L2_FRMSIZE_TYPE_DISCRETE;
const uint32_t LV_FRMSIZE_TYPE_CONTINUOUS = V4L2_FRMSIZE_TYPE_CONTINUOUS;
const uint32_t LV_FRMSIZE_TYPE_STEPWISE = V4L2_FRMSIZE_TYPE_STEPWISE;
const uint32_t LV_FRMIVAL_TYPE_DISCRETE = V4L2_FRMIVAL_TYPE_DISCRETE;
const uint32_t LV_FRMIVAL_TYPE_CONTINUOUS = V4L2_FRMIVAL_TYPE_CONTINUOUS;
const uint32_t LV_FRMIVAL_TYPE_STEPWISE = V4L2_FRMIVAL_TYPE_STEPWISE;

const uint32_t LV_CTRL_FLAG_NEXT_CTRL = V4L2_CTRL_FLAG_NEXT_CTRL;
const uint32_t LV_CTRL_FLAG_DISABLED = V4L2_CTRL_FLAG_DISABLED;
const uint32_t LV_CTRL_TYPE_BUTTON = V4L2_CTRL_TYPE_BUTTON;
const uint32_t LV_CTRL_TYPE_CTRL_CLASS = V4L2_CTRL_TYPE_CTRL_CLASS;
