"""Speckle census of census.sh's renders: per model and yaw, the speckles of the 1280x960 render
by SpeckleTests' definition (luma above all eight neighbours by > 12 and above their median by
> 40), how many of those are brighter than the 4x4-supersampled render (5120x3840 averaged in
linear light) by > 30 levels ("aliased": the converged picture has no such dot), the speckles the
supersampled render has itself by the same definition, and the mean absolute luma difference
from it over the model's pixels. Usage: census.py FOLDER [--list]"""
import glob, os, sys
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view


def load(path):
    data = open(path, 'rb').read()
    parts = data.split(maxsplit=4)
    w, h = int(parts[1]), int(parts[2])
    return np.frombuffer(parts[4], dtype=np.uint8)[:w * h * 3].reshape(h, w, 3)


def linear(a):
    a = a / 255.0
    return np.where(a <= 0.04045, a / 12.92, ((a + 0.055) / 1.055) ** 2.4)


def srgb(l):
    return np.where(l <= 0.0031308, l * 12.92, 1.055 * l ** (1 / 2.4) - 0.055) * 255


def luma(im):
    return (299 * im[..., 0] + 587 * im[..., 1] + 114 * im[..., 2]) // 1000


def speckles(l):
    h, w = l.shape
    win = sliding_window_view(l, (3, 3)).reshape(h - 2, w - 2, 9)
    centre = win[..., 4]
    around = np.sort(np.delete(win, 4, axis=2), axis=2)
    found = (centre > around[..., 7] + 12) & (centre > (around[..., 3] + around[..., 4]) // 2 + 40)
    ys, xs = np.nonzero(found)
    return [(int(x) + 1, int(y) + 1) for x, y in zip(xs, ys)]


def main():
    folder, listing = sys.argv[1], '--list' in sys.argv
    totals = dict(speckles=0, aliased=0, supersampled=0)
    print(f"{'model, yaw':44s} {'speckles':>8s} {'aliased':>8s} {'in 4x4':>7s} {'MAE':>6s}")
    for path in sorted(glob.glob(os.path.join(folder, '*_1280x960.ppm'))):
        name = os.path.basename(path)[:-len('_1280x960.ppm')]
        render = load(path).astype(np.int64)
        big = load(path.replace('_1280x960', '_5120x3840'))
        h, w, _ = render.shape
        converged = srgb(linear(big).reshape(h, 4, w, 4, 3).mean(axis=(1, 3)))
        l, lc = luma(render), luma(np.floor(converged + 0.5).astype(np.int64))
        # The model's pixels: where either picture differs from the turntable backdrop.
        shade = (226 - 56 * np.arange(h) / (h - 1)).astype(np.int64)
        backdrop = ((299 + 587) * shade + 114 * np.minimum(255, shade + 4)) // 1000
        model = (np.abs(l - backdrop[:, None]) > 2) | (np.abs(lc - backdrop[:, None]) > 2)
        found = speckles(l)
        aliased = [(x, y) for x, y in found if l[y, x] - lc[y, x] > 30]
        own = speckles(lc)
        totals['speckles'] += len(found); totals['aliased'] += len(aliased); totals['supersampled'] += len(own)
        mae = np.abs(l - lc)[model].mean()
        print(f"{name:44s} {len(found):8d} {len(aliased):8d} {len(own):7d} {mae:6.2f}")
        if listing:
            for x, y in aliased:
                print(f"    ({x}, {y}) {l[y, x]} against {lc[y, x]}")
    print(f"{'all':44s} {totals['speckles']:8d} {totals['aliased']:8d} {totals['supersampled']:7d}")


main()
