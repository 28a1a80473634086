#!/usr/bin/env python3
"""Still-head jitter and turn lag of `lorgnette track`, smoothed against unsmoothed.

Usage: jitter_lag.py RAW.jsonl SMOOTH.jsonl
  RAW.jsonl    from `lorgnette track --no-smoothing --json RAW.jsonl ...`
  SMOOTH.jsonl from `lorgnette track --json SMOOTH.jsonl ...` on the same input.
The raw landmarks drive tracking in both runs, so the two pose sequences differ only by the filters.

Per frame the pose of face id of the first face is read (frames without a face are gaps).
- Face coverage: share of frames with a face (both runs).
- Still frames: where a centred 9-frame moving average of the raw pose moves < 0.2 deg/frame (6 deg/s) in each of
  pitch, yaw, roll and < 1 mm/frame in each of x, y, z (both with the face tracked on all 9 frames); every such
  frame counts, none is picked by hand. Jitter = mean |second difference| of rotation (deg) and translation (mm)
  there, per component, averaged over the three components.
- Turns: windows where the moving-average raw yaw changes by >= 20 deg within 30 frames. Lag = the
  shift s in 0..8 frames minimising sum (smoothed[k] - rawMA[k - s])^2 over the turn.
"""
import json, sys

def load(path):
    out = []
    for line in open(path):
        d = json.loads(line)
        f = d["faces"][0] if d["faces"] else None
        out.append(None if f is None else (f["pose"]["rotation_deg"], f["pose"]["translation_mm"]))
    return out

def ma(xs, k, w=4):
    vals = [xs[j] for j in range(k - w, k + w + 1) if 0 <= j < len(xs) and xs[j] is not None]
    return sum(vals) / len(vals) if len(vals) == 2 * w + 1 else None

def main():
    raw, smooth = load(sys.argv[1]), load(sys.argv[2])
    n = min(len(raw), len(smooth))
    cov_r = sum(p is not None for p in raw[:n]) / n
    cov_s = sum(p is not None for p in smooth[:n]) / n
    comps = {}
    for c in range(6):
        comps[c] = [None if p is None else p[c // 3][c % 3] for p in raw[:n]]
    mas = {c: [ma(comps[c], k) for k in range(n)] for c in range(6)}
    limit = [0.2, 0.2, 0.2, 1.0, 1.0, 1.0]
    still = []
    for k in range(1, n - 1):
        ok = all(mas[c][k - 1] is not None and mas[c][k + 1] is not None and abs(mas[c][k + 1] - mas[c][k - 1]) / 2 < limit[c] for c in range(6))
        if ok and all(x is not None for x in (raw[k - 1], raw[k], raw[k + 1], smooth[k - 1], smooth[k], smooth[k + 1])):
            still.append(k)
    def jitter(seq, idx, part):
        tot = 0.0
        for k in idx:
            a, b, c = seq[k - 1][part], seq[k][part], seq[k + 1][part]
            tot += sum(abs(c[i] - 2 * b[i] + a[i]) for i in range(3)) / 3
        return tot / max(len(idx), 1)
    jr, js = jitter(raw, still, 0), jitter(smooth, still, 0)
    tr, ts = jitter(raw, still, 1), jitter(smooth, still, 1)
    print(f"frames {n}; face on {cov_r*100:.1f} % (raw run), {cov_s*100:.1f} % (smoothed run)")
    print(f"still frames {len(still)}: rotation jitter raw {jr:.3f} deg, smoothed {js:.3f} deg ({jr/max(js,1e-9):.1f}x); "
          f"translation jitter raw {tr:.2f} mm, smoothed {ts:.2f} mm ({tr/max(ts,1e-9):.1f}x)")
    yaw = mas[1]
    sy = [None if p is None else p[0][1] for p in smooth[:n]]
    k = 0
    lags = []
    while k < n:
        found = None
        if yaw[k] is not None:
            for e in range(k + 1, min(n, k + 31)):
                if yaw[e] is not None and abs(yaw[e] - yaw[k]) >= 20:
                    found = e
                    break
        if found is None:
            k += 1
            continue
        best, best_s = None, None
        for s in range(0, 9):
            err, cnt = 0.0, 0
            for j in range(k, found + 1):
                if j - s >= 0 and yaw[j - s] is not None and sy[j] is not None:
                    err += (sy[j] - yaw[j - s]) ** 2
                    cnt += 1
            if cnt and (best is None or err / cnt < best):
                best, best_s = err / cnt, s
        lags.append((k, found, yaw[found] - yaw[k], best_s))
        k = found + 1
    for a, b, d, s in lags:
        print(f"turn frames {a}-{b}: {d:+.1f} deg, lag {s} frames")
    if not lags:
        print("no 20 deg turn within 30 frames")

main()
