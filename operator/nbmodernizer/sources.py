"""Where the spec's files come from: a path relative to the spec file, or an s3:// URI."""

from __future__ import annotations

from pathlib import Path

from nbmodernizer.store import StoreError, parse_s3_uri, read_s3, s3_client


def is_s3(ref: str) -> bool:
    return ref.startswith("s3://")


def local_path(ref: str, base: Path) -> Path:
    path = Path(ref).expanduser()
    return path if path.is_absolute() else base / path


def read_bytes(ref: str, base: Path) -> bytes:
    """The bytes at `ref`; FileNotFoundError when there is nothing there."""
    if is_s3(ref):
        bucket, key = parse_s3_uri(ref)
        return read_s3(s3_client(), bucket, key)
    return local_path(ref, base).read_bytes()


def fetch_file(ref: str, base: Path, scratch: Path) -> Path:
    """A local path holding the file at `ref` (downloaded into `scratch` if remote)."""
    if not is_s3(ref):
        return local_path(ref, base)
    target = scratch / Path(parse_s3_uri(ref)[1]).name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(read_bytes(ref, base))
    return target


def fetch_dir(ref: str, base: Path, scratch: Path) -> Path:
    """A local folder holding the tree at `ref` (an s3:// prefix is downloaded into `scratch`)."""
    if not is_s3(ref):
        path = local_path(ref, base)
        if not path.is_dir():
            raise FileNotFoundError(f"{path} is not a directory")
        return path
    bucket, prefix = parse_s3_uri(ref)
    prefix = prefix.rstrip("/") + "/" if prefix else ""
    client = s3_client()
    scratch.mkdir(parents=True, exist_ok=True)
    found = False
    for page in client.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix):
        for item in page.get("Contents", []):
            relative = item["Key"][len(prefix) :]
            if not relative or relative.endswith("/"):
                continue
            target = scratch / relative
            if not target.resolve().is_relative_to(scratch.resolve()):
                raise StoreError(f"refusing key outside the input folder: {item['Key']}")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(read_s3(client, bucket, item["Key"]))
            found = True
    if not found:
        raise FileNotFoundError(f"no objects under {ref}")
    return scratch
