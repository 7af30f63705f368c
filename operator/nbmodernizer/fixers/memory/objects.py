"""Where the fix memory's objects live: a local folder or an S3 prefix, written once.

Every object is created once and never changed or deleted, so writers never coordinate: a
local write goes to a temporary file that is then hard-linked to its name (the link fails
when the name exists: no reader ever sees half a file); an S3 write is the store's
conditional create (`If-None-Match: *`). Writing a name that exists is not an error: the
caller names objects so that the same name means the same fact.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Protocol

from nbmodernizer.store import RevisionExistsError, StoreError
from nbmodernizer.store.revisions import TEMPORARY_PREFIX, create_file_once
from nbmodernizer.store.s3 import parse_s3_uri, read_s3, s3_client, write_s3_once


class Objects(Protocol):
    @property
    def uri(self) -> str: ...

    def put_once(self, key: str, data: bytes) -> bool:
        """Create the object; False when it exists already (with these bytes or others)."""
        ...

    def get(self, key: str) -> bytes: ...

    def keys(self, prefix: str = "") -> list[str]:
        """Every key under the root that starts with `prefix` (keys relative to the root)."""
        ...


class LocalObjects:
    def __init__(self, root: Path) -> None:
        self.root = root.expanduser().resolve()

    @property
    def uri(self) -> str:
        return str(self.root)

    def put_once(self, key: str, data: bytes) -> bool:
        return create_file_once(self.root / key, data)

    def get(self, key: str) -> bytes:
        return (self.root / key).read_bytes()

    def keys(self, prefix: str = "") -> list[str]:
        folder = self.root / prefix.rsplit("/", 1)[0] if "/" in prefix else self.root
        if not folder.is_dir():
            return []
        found = []
        for directory, _, files in os.walk(folder):
            for name in files:
                if not name.startswith(TEMPORARY_PREFIX):
                    key = (Path(directory) / name).relative_to(self.root).as_posix()
                    if key.startswith(prefix):
                        found.append(key)
        return sorted(found)


class S3Objects:
    def __init__(self, uri: str) -> None:
        bucket, prefix = parse_s3_uri(uri)
        self.bucket, self.prefix, self.client = bucket, prefix.strip("/"), s3_client()

    @property
    def uri(self) -> str:
        return f"s3://{self.bucket}/{self.prefix}/" if self.prefix else f"s3://{self.bucket}/"

    def _key(self, key: str) -> str:
        return f"{self.prefix}/{key}" if self.prefix else key

    def put_once(self, key: str, data: bytes) -> bool:
        try:
            write_s3_once(self.client, self.bucket, self._key(key), data)
        except RevisionExistsError:
            return False
        return True

    def get(self, key: str) -> bytes:
        return read_s3(self.client, self.bucket, self._key(key))

    def keys(self, prefix: str = "") -> list[str]:
        from botocore.exceptions import BotoCoreError, ClientError

        root = f"{self.prefix}/" if self.prefix else ""
        paginator = self.client.get_paginator("list_objects_v2")
        found: list[str] = []
        try:
            for page in paginator.paginate(Bucket=self.bucket, Prefix=root + prefix):
                found.extend(item["Key"][len(root) :] for item in page.get("Contents", []))
        except (BotoCoreError, ClientError) as error:
            raise StoreError(f"cannot list {self.uri}{prefix}: {error}") from None
        return sorted(found)


def open_objects(location: str) -> Objects:
    if location.startswith("s3://"):
        return S3Objects(location)
    return LocalObjects(Path(location))
