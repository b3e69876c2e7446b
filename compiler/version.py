"""grafo's version, recorded in artifact manifests and disk cache keys; ``compiler.__version__``
re-exports it. It lives in a module of its own so that the modules that record it need not
import the package root, which imports the whole API."""

__version__ = "0.1.0"
