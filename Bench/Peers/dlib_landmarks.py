#!/usr/bin/env python3
"""dlib's 68-point shape predictor on the same validation split as `lorgnette eval landmarks`.

Peer comparison for issue 4: dlib's HOG frontal face detector + `shape_predictor_68_face_landmarks`
(from PyPI `face-recognition-models`), run through PyPI `dlib-bin`:

    python3 -m pip install dlib-bin face-recognition-models
    python3 Bench/Peers/dlib_landmarks.py --data ../shared/data/faces68/train [--per-face dlib.csv]

The split is FaceDataset's: FNV-1a 64 of the source photo (index.csv `original_path`, else the
file stem), validation when hash % 100 < 10. A face is found when a dlib detection overlaps its
canonical box (square on the landmarks' bounding box) with IoU >= 0.4; misses count as failures.
Note: dlib's model was trained on the 300-W training images (iBUG), which include these faces,
so its numbers here are optimistic.
"""
import argparse, csv, math, os, sys, time


def fnv1a(s):
    h = 0xcbf29ce484222325
    for b in s.encode("utf-8"):
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def read_pts(path):
    pts = []
    with open(path) as f:
        inside = False
        for line in f:
            line = line.strip()
            if line == "{": inside = True; continue
            if line == "}": break
            if inside and line:
                x, y = line.split()
                pts.append((float(x), float(y)))
    return pts


def canonical(pts):
    xs = [p[0] for p in pts]; ys = [p[1] for p in pts]
    side = max(max(xs) - min(xs), max(ys) - min(ys))
    cx = (max(xs) + min(xs)) / 2; cy = (max(ys) + min(ys)) / 2
    return (cx - side / 2, cy - side / 2, side, side)


def iou(a, b):
    ix = max(0.0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = a[2] * a[3] + b[2] * b[3] - inter
    return inter / union if union > 0 else 0.0


def dist(p, q):
    return math.hypot(p[0] - q[0], p[1] - q[1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--split", default="validation", choices=["validation", "all"])
    ap.add_argument("--upsample", type=int, default=1, help="dlib detector upsampling (1 = face_recognition's default)")
    ap.add_argument("--per-face", help="write name,nme_io,nme_ip CSV")
    a = ap.parse_args()

    import dlib
    import face_recognition_models
    detector = dlib.get_frontal_face_detector()
    predictor = dlib.shape_predictor(face_recognition_models.pose_predictor_model_location())

    sources = {}
    index = os.path.join(a.data, "index.csv")
    if os.path.exists(index):
        for row in csv.DictReader(open(index)):
            sources[row["file"]] = row["original_path"]
    names = sorted(n for n in os.listdir(a.data)
                   if n.lower().endswith((".jpg", ".jpeg")) and os.path.exists(os.path.join(a.data, n.rsplit(".", 1)[0] + ".pts")))
    regions = [("jaw", range(0, 17)), ("brows", range(17, 27)), ("nose", range(27, 36)), ("eyes", range(36, 48)), ("mouth", range(48, 68))]
    rows, det_ms, pred_ms = [], [], []
    region_sum = {r: 0.0 for r, _ in regions}
    for n in names:
        stem = n.rsplit(".", 1)[0]
        if a.split == "validation" and fnv1a(sources.get(n, stem)) % 100 >= 10:
            continue
        truth = read_pts(os.path.join(a.data, stem + ".pts"))
        img = dlib.load_rgb_image(os.path.join(a.data, n))
        t0 = time.perf_counter()
        dets = detector(img, a.upsample)
        det_ms.append(1000 * (time.perf_counter() - t0))
        can = canonical(truth)
        best, best_iou = None, 0.4
        for d in dets:
            # dlib boxes are inclusive pixel rectangles; compare their square-ish extents with the canonical box.
            b = (d.left(), d.top(), d.right() - d.left() + 1, d.bottom() - d.top() + 1)
            # dlib's box covers the inner face (brows to chin), smaller than the landmarks' box: match by
            # overlap of the canonical box with the dlib box grown to its landmark-box equivalent.
            g = 1.25
            bb = (b[0] + b[2] / 2 - g * b[2] / 2, b[1] + b[3] / 2 - g * b[3] / 2 + 0.05 * b[3], g * b[2], g * b[3])
            v = iou(bb, can)
            if v >= best_iou: best, best_iou = d, v
        io = dist(truth[36], truth[45])
        l = [sum(truth[i][k] for i in range(36, 42)) / 6 for k in (0, 1)]
        r = [sum(truth[i][k] for i in range(42, 48)) / 6 for k in (0, 1)]
        ip = dist(l, r)
        if best is None:
            rows.append((stem, math.inf, math.inf)); continue
        t0 = time.perf_counter()
        shape = predictor(img, best)
        pred_ms.append(1000 * (time.perf_counter() - t0))
        pred = [(shape.part(i).x, shape.part(i).y) for i in range(68)]
        err = sum(dist(p, q) for p, q in zip(pred, truth)) / 68
        for name, idx in regions:
            region_sum[name] += sum(dist(pred[i], truth[i]) for i in idx) / len(idx) / io
        rows.append((stem, err / io, err / ip))

    found = [r for r in rows if r[1] != math.inf]
    nme = sorted(r[1] for r in rows)
    count = len(rows)
    def pct(v): return "%.2f %%" % (100 * v)
    print("dlib %s: %d faces (%s split), missed %d" % (dlib.__version__, count, a.split, count - len(found)))
    print("NME inter-ocular: mean %s, median %s" % (pct(sum(r[1] for r in found) / len(found)), pct(sorted(r[1] for r in found)[len(found) // 2])))
    print("NME inter-pupil:  mean %s" % pct(sum(r[2] for r in found) / len(found)))
    print("failure rate: NME > 0.08: %s, NME > 0.10: %s (misses count as failures)" % (
        pct(sum(1 for e in nme if e > 0.08) / count), pct(sum(1 for e in nme if e > 0.10) / count)))
    print("AUC@0.08: %.4f" % (sum(0.08 - e for e in nme if e < 0.08) / (0.08 * count)))
    print("per region (inter-ocular NME): " + ", ".join("%s %s" % (k, pct(region_sum[k] / len(found))) for k, _ in regions))
    print("predictor: %.3f ms per face, detector: %.1f ms per image (upsample %d)" % (
        sum(pred_ms) / len(pred_ms), sum(det_ms) / len(det_ms), a.upsample))
    if a.per_face:
        with open(a.per_face, "w") as f:
            f.write("name,nme_io,nme_ip\n")
            for r in rows:
                f.write("%s,%s,%s\n" % (r[0], "inf" if r[1] == math.inf else repr(r[1]), "inf" if r[2] == math.inf else repr(r[2])))


if __name__ == "__main__":
    sys.exit(main())
