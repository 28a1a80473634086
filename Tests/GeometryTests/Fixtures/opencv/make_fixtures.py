"""Writes the OpenCV calibration fixtures that GeometryTests/OpenCVCalibrationTests read.

Real OpenCV (PyPI `opencv-python-headless`) calibrates a simulated 9x6 chessboard seen from 12 poses
by a 640x480 camera with known intrinsics and distortion, and saves the result with cv2.FileStorage
as YAML and as JSON (files named by OpenCV major version), exactly as a user's calibration script would. `expected-opencvN.json` holds the same
numbers in the project's own calibration format (full double precision), for the tests to compare.

    pip install opencv-python-headless
    python3 Tests/GeometryTests/Fixtures/opencv/make_fixtures.py   # with opencv-python-headless 5.x
    (a venv with "opencv-python-headless<5") python Tests/GeometryTests/Fixtures/opencv/make_fixtures.py  # 4.x
"""
import json
import os

import cv2
import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
major = cv2.__version__.split(".")[0]  # OpenCV 4 writes "%YAML:1.0", 5 writes "%YAML 1.2"
rng = np.random.default_rng(24)
size = (640, 480)
true_k = np.array([[612.0, 0, 322.5], [0, 610.0, 236.0], [0, 0, 1]])
true_d = np.array([-0.21, 0.09, 0.0012, -0.0008, -0.015])

board = np.zeros((9 * 6, 3), np.float32)
board[:, :2] = np.mgrid[0:9, 0:6].T.reshape(-1, 2) * 25.0  # 25 mm squares
object_points, image_points = [], []
for i in range(12):
    rvec = rng.uniform(-0.35, 0.35, 3)
    tvec = np.array([-100 + rng.uniform(-30, 30), -62 + rng.uniform(-20, 20), 420 + rng.uniform(-60, 120)])
    pts, _ = cv2.projectPoints(board, rvec, tvec, true_k, true_d)
    pts = pts.reshape(-1, 2) + rng.normal(0, 0.15, (len(board), 2))  # corner noise, px
    object_points.append(board)
    image_points.append(pts.astype(np.float32))

rms, k, d, _, _ = cv2.calibrateCamera(object_points, image_points, size, None, None)
d = d.reshape(-1)


def save(path, k, d):
    fs = cv2.FileStorage(path, cv2.FILE_STORAGE_WRITE)
    fs.write("image_width", size[0])
    fs.write("image_height", size[1])
    fs.write("camera_matrix", k)
    fs.write("distortion_coefficients", d.reshape(1, -1))
    fs.write("avg_reprojection_error", rms)
    fs.release()


save(os.path.join(here, f"calibration-opencv{major}.yml"), k, d)
save(os.path.join(here, f"calibration-opencv{major}.json"), k, d)

# The rational model (8 coefficients: k4-k6 non-zero) is outside the project's camera model.
flags = cv2.CALIB_RATIONAL_MODEL
_, k8, d8, _, _ = cv2.calibrateCamera(object_points, image_points, size, None, None, flags=flags)
save(os.path.join(here, f"rational-opencv{major}.yml"), k8, d8.reshape(-1))

# Where OpenCV's own model puts a few camera-space points (mm), for checking the coefficient mapping.
points = np.array([[0.0, 0.0, 500.0], [120.0, -80.0, 400.0], [-210.0, 150.0, 350.0], [150.0, 110.0, 400.0]])
pixels, _ = cv2.projectPoints(points, np.zeros(3), np.zeros(3), k, d)
projections = [[*map(float, p), *map(float, q)] for p, q in zip(points, pixels.reshape(-1, 2))]

expected = {"fx": k[0, 0], "fy": k[1, 1], "cx": k[0, 2], "cy": k[1, 2],
            "k1": d[0], "k2": d[1], "p1": d[2], "p2": d[3], "k3": d[4], "width": size[0], "height": size[1],
            "opencv": cv2.__version__, "rms_px": rms}
with open(os.path.join(here, f"expected-opencv{major}.json"), "w") as f:
    out = {key: float(v) if not isinstance(v, str) else v for key, v in expected.items()}
    out["projections"] = projections  # x, y, z (mm) -> u, v (px) by cv2.projectPoints
    json.dump(out, f, indent=1)
print(f"OpenCV {cv2.__version__}: rms {rms:.3f} px, fx {k[0, 0]:.2f} fy {k[1, 1]:.2f} cx {k[0, 2]:.2f} cy {k[1, 2]:.2f}, d {d}")
