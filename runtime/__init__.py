"""grafo's runtime: runs compiled code with NumPy and ctypes only (no compiler, llvmlite or
lark). ``load(path)`` opens an ahead-of-time artifact (see ``artifact.py``, and ``manifest.py``
for the schema its manifest is checked against); ``abi.py`` is the calling convention of
native entry points."""

from .artifact import (
    ArtifactError,
    ChecksumError,
    CorruptArtifactError,
    FormatVersionError,
    InvalidManifestError,
    Library,
    LibraryMismatchError,
    LoadedFunction,
    MissingCPUFeaturesError,
    NotAnArtifactError,
    NotLinkedError,
    TargetMismatchError,
    load,
)

__all__ = ["ArtifactError", "ChecksumError", "CorruptArtifactError", "FormatVersionError",
           "InvalidManifestError", "Library", "LibraryMismatchError", "LoadedFunction",
           "MissingCPUFeaturesError", "NotAnArtifactError", "NotLinkedError",
           "TargetMismatchError", "load"]
