"""Profile pictures: decoded with Pillow, checked against a pixel budget, stored re-encoded.

What a parent sends is never stored as it is: a file that only *starts* like a PNG, a
"decompression bomb" (a 60000 x 60000 PNG is a few hundred KB and would need 14 GB once
decoded), metadata (GPS position in a phone photo) or a polyglot file all stop here. The size
is read from the header and refused *before* any pixel is decoded.
"""

from __future__ import annotations

import io
import warnings

from PIL import Image, ImageOps, UnidentifiedImageError

from hotmeals.domain.errors import DomainError

PIXEL_BUDGET = 40_000_000  # 40 megapixels: any phone photo, nothing absurd
STORED_MAX_SIDE = 1024  # a profile picture is shown at most a few hundred pixels wide
_FORMATS = {"PNG": "png", "JPEG": "jpg", "WEBP": "webp"}


def _refuse(code: str = "image_type_invalid") -> DomainError:
    return DomainError(code, field="profile_image")


def reencode(data: bytes) -> tuple[bytes, str]:
    """The picture re-encoded (same format, at most ``STORED_MAX_SIDE`` pixels a side, no
    metadata, first frame only) and its kind ('png', 'jpg', 'webp')."""
    with warnings.catch_warnings():
        # Pillow only warns between MAX_IMAGE_PIXELS and twice that; here it is an error.
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            image: Image.Image = Image.open(io.BytesIO(data), formats=list(_FORMATS))
        except (Image.DecompressionBombError, Image.DecompressionBombWarning):
            raise _refuse("image_too_many_pixels") from None  # read from the header only
        except (UnidentifiedImageError, Warning, OSError):
            raise _refuse() from None
        kind = _FORMATS.get(image.format or "")
        if kind is None:
            raise _refuse()
        width, height = image.size
        if width <= 0 or height <= 0:
            raise _refuse()
        if width * height > PIXEL_BUDGET:
            raise _refuse("image_too_many_pixels")
        if kind == "jpg":
            # Decode straight at a reduced scale (JPEG's DCT scaling): less memory and time.
            image.draft("RGB", (STORED_MAX_SIDE * 2, STORED_MAX_SIDE * 2))
        try:
            image.load()
            image = ImageOps.exif_transpose(image)
        except (OSError, SyntaxError, ValueError, Image.DecompressionBombError, Warning):
            raise _refuse() from None
    image.thumbnail((STORED_MAX_SIDE, STORED_MAX_SIDE))
    out = io.BytesIO()
    if kind == "jpg":
        image.convert("RGB").save(out, "JPEG", quality=85, optimize=True)
    elif kind == "png":
        if image.mode not in ("RGB", "RGBA", "L", "LA", "P"):
            image = image.convert("RGBA")
        image.save(out, "PNG", optimize=True)
    else:
        if image.mode not in ("RGB", "RGBA"):
            image = image.convert("RGBA")
        image.save(out, "WEBP", quality=85)
    return out.getvalue(), kind
