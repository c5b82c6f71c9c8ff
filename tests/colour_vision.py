"""Colour measures for the board's tests, in plain Python: WCAG 2's contrast ratio, the
Machado et al. (2009) simulation of colour-blind sight, and the colour difference in
CAM02-UCS (Luo et al. 2006 on CIECAM02, sRGB viewing conditions) -- the measures issue 27
gave for the board (red and green "8.3 apart in CAM02-UCS under deuteranopia, brightness
1.42 : 1"). The numbers agree with the colorspacious library's `deltaE` and
`cspace_convert(..., {"name": "sRGB1+CVD", ...})` to the first decimal."""

from __future__ import annotations

import math
import re

Vector = tuple[float, float, float]
Matrix = tuple[Vector, Vector, Vector]

# Machado, Oliveira & Fernandes 2009, severity 1.0, applied to linear sRGB.
DEUTERANOPIA: Matrix = (
    (0.367322, 0.860646, -0.227968),
    (0.280085, 0.672501, 0.047413),
    (-0.011820, 0.042940, 0.968881),
)
PROTANOPIA: Matrix = (
    (0.152286, 1.052583, -0.204868),
    (0.114503, 0.786281, 0.099216),
    (-0.003882, -0.048116, 1.051998),
)

_CAT02: Matrix = (
    (0.7328, 0.4296, -0.1624),
    (-0.7036, 1.6975, 0.0061),
    (0.0030, 0.0136, 0.9834),
)
_HPE: Matrix = (
    (0.38971, 0.68898, -0.07868),
    (-0.22981, 1.18340, 0.04641),
    (0.0, 0.0, 1.0),
)


def _mul(m: Matrix, v: Vector) -> Vector:
    return (
        m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2],
        m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
        m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2],
    )


def _inverse(m: Matrix) -> Matrix:
    (a, b, c), (d, e, f), (g, h, i) = m
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    return (
        ((e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det),
        ((f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det),
        ((d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det),
    )


# The sRGB standard's own XYZ-to-RGB matrix, inverted, as colorspacious does.
_XYZ_TO_SRGB: Matrix = (
    (3.2406, -1.5372, -0.4986),
    (-0.9689, 1.8758, 0.0415),
    (0.0557, -0.2040, 1.0570),
)
_SRGB_TO_XYZ_EXACT = _inverse(_XYZ_TO_SRGB)


def parse(colour: str) -> Vector:
    """'#rrggbb', '#rgb' or a computed 'rgb(r, g, b)' as sRGB on the 0-1 scale."""
    colour = colour.strip().lower()
    if colour.startswith("rgb"):
        r, g, b = (float(x) for x in re.findall(r"[\d.]+", colour)[:3])
        return (r / 255, g / 255, b / 255)
    digits = colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(ch * 2 for ch in digits)
    r, g, b = (int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return (r, g, b)


def linear(srgb: Vector) -> Vector:
    r, g, b = (c / 12.92 if c < 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in srgb)
    return (r, g, b)


def luminance(colour: str | Vector) -> float:
    """WCAG 2's relative luminance."""
    rgb = linear(parse(colour) if isinstance(colour, str) else colour)
    return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]


def contrast(a: str | Vector, b: str | Vector) -> float:
    """WCAG 2's contrast ratio, 1 to 21."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def seen_with(colour: str, deficiency: Matrix) -> Vector:
    """The sRGB colour a colour-blind eye sees instead (clipped to the screen's gamut)."""
    r, g, b = _mul(deficiency, linear(parse(colour)))
    lin = tuple(min(1.0, max(0.0, c)) for c in (r, g, b))
    r, g, b = (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055 for c in lin)
    return (r, g, b)


# CIECAM02's viewing conditions for sRGB: D65 white, a grey background (Y_b 20), an
# adapting field of 64 lux / pi / 5, average surround.
_WHITE: Vector = (95.047, 100.0, 108.883)
_Y_B, _L_A, _F, _C, _N_C = 20.0, 64 / math.pi / 5, 1.0, 0.69, 1.0


def _adapted(xyz: Vector, d_rgb: Vector, f_l: float) -> Vector:
    rgb = _mul(_CAT02, xyz)
    cone = _mul(
        _HPE, _mul(_inverse(_CAT02), (rgb[0] * d_rgb[0], rgb[1] * d_rgb[1], rgb[2] * d_rgb[2]))
    )

    def squash(x: float) -> float:
        t = (f_l * abs(x) / 100) ** 0.42
        return math.copysign(400 * t / (t + 27.13), x) + 0.1

    r, g, b = (squash(c) for c in cone)
    return (r, g, b)


def cam02_ucs(srgb: Vector) -> Vector:
    """J', a', b' in CAM02-UCS for an sRGB colour on the 0-1 scale."""
    xyz = _mul(_SRGB_TO_XYZ_EXACT, linear(srgb))
    xyz = (xyz[0] * 100, xyz[1] * 100, xyz[2] * 100)
    rgb_w = _mul(_CAT02, _WHITE)
    d = min(1.0, max(0.0, _F * (1 - (1 / 3.6) * math.exp((-_L_A - 42) / 92))))
    d_rgb = tuple(d * _WHITE[1] / c + 1 - d for c in rgb_w)
    d_rgb = (d_rgb[0], d_rgb[1], d_rgb[2])
    k = 1 / (5 * _L_A + 1)
    f_l = 0.2 * k**4 * (5 * _L_A) + 0.1 * (1 - k**4) ** 2 * (5 * _L_A) ** (1 / 3)
    n = _Y_B / _WHITE[1]
    z = 1.48 + math.sqrt(n)
    n_bb = 0.725 * (1 / n) ** 0.2
    aw = _adapted(_WHITE, d_rgb, f_l)
    a_white = (2 * aw[0] + aw[1] + aw[2] / 20 - 0.305) * n_bb
    r, g, b = _adapted(xyz, d_rgb, f_l)
    a = r - 12 * g / 11 + b / 11
    bb = (r + g - 2 * b) / 9
    h = math.atan2(bb, a)
    achromatic = (2 * r + g + b / 20 - 0.305) * n_bb
    j = 100 * (achromatic / a_white) ** (_C * z)
    e = (12500 / 13) * _N_C * n_bb * (math.cos(h + 2) + 3.8)
    t = e * math.hypot(a, bb) / (r + g + 21 * b / 20)
    chroma = t**0.9 * math.sqrt(j / 100) * (1.64 - 0.29**n) ** 0.73
    m = chroma * f_l**0.25
    jp = 1.7 * j / (1 + 0.007 * j)
    mp = math.log(1 + 0.0228 * m) / 0.0228
    return (jp, mp * math.cos(h), mp * math.sin(h))


def difference(a: Vector, b: Vector) -> float:
    """The colour difference of two sRGB colours in CAM02-UCS."""
    return math.dist(cam02_ucs(a), cam02_ucs(b))
