#!/usr/bin/env python3
# Usage: lorgnette track --input CLIP.mjpeg --json CLIP.jsonl; python3 light_stability.py CLIP.jsonl ...
# Frame-to-frame stability and plausibility of the "light" objects in `lorgnette track --json` output.
# Still head: head rotation changed < 1 deg since the previous frame (same face id).
import json, sys, math
def rot(r):
    p,y,z=[math.radians(v) for v in r]
    return p,y,z
for path in sys.argv[1:]:
    prev={}; still=[]; allc=[]; ccts=[]; amb=[]; key=[]; dirs=[]
    n=0; nl=0
    for line in open(path):
        f=json.loads(line); n+=1
        for face in f['faces']:
            if 'light' not in face: continue
            nl+=1
            L=face['light']; d=L['direction']; r=face['pose']['rotation_deg']
            ccts.append(L['color_temperature_k']); amb.append(L['ambient_intensity']); key.append(L['intensity']); dirs.append(d)
            if face['id'] in prev:
                pd,pr=prev[face['id']]
                c=max(-1,min(1,sum(a*b for a,b in zip(d,pd))))
                ch=math.degrees(math.acos(c)); allc.append(ch)
                # rotation change approximated by the largest Euler-angle change
                if max(abs(a-b) for a,b in zip(r,pr))<1.0: still.append(ch)
            prev[face['id']]=(d,r)
    def pct(a,p): a=sorted(a); return a[min(len(a)-1,int(len(a)*p))] if a else float('nan')
    md=[sum(x[i] for x in dirs)/len(dirs) for i in range(3)]
    print(f"{path.split('/')[-1]}: {n} frames, {nl} faces with light; still heads n={len(still)}: median {pct(still,.5):.2f} p95 {pct(still,.95):.2f} max {max(still) if still else float('nan'):.2f} deg/frame; "
          f"all: median {pct(allc,.5):.2f} p95 {pct(allc,.95):.2f} max {max(allc) if allc else float('nan'):.2f}; "
          f"CCT median {pct(ccts,.5):.0f} K [{pct(ccts,.05):.0f}-{pct(ccts,.95):.0f}]; ambient {pct(amb,.5):.0f}; key {pct(key,.5):.0f}; mean travel dir ({md[0]:.2f}, {md[1]:.2f}, {md[2]:.2f})")
