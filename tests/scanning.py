"""What a phone's camera reads from a QR code in a picture."""

from __future__ import annotations

import cv2
import numpy as np

QUIET_ZONE = 32
"""White pixels laid round the picture first: a detector needs a light margin round a code, and a screenshot of
the code alone has none."""


def scan(picture: np.ndarray) -> str:
    """The text of the QR code in a greyscale ``picture``, or "" when none is read. OpenCV's two detectors each
    miss some codes at some sizes (a phone tries frame after frame), so both are tried at a few sizes."""
    padded = cv2.copyMakeBorder(picture, *(QUIET_ZONE,) * 4, cv2.BORDER_CONSTANT, value=255)
    for detector in (cv2.QRCodeDetector(), cv2.QRCodeDetectorAruco()):
        for scale in (1.0, 1.5, 0.75, 2.0):
            text = detector.detectAndDecode(cv2.resize(padded, None, fx=scale, fy=scale,
                                                       interpolation=cv2.INTER_NEAREST))[0]
            if text:
                return str(text)
    return ""
