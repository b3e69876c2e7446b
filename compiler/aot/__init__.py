"""Ahead-of-time compilation: artifacts (``save``), targets other than this CPU, and the
ConcreteFunctions backed by artifacts that the on-disk cache and pickling produce.

``save(path, functions)`` writes one artifact (the format of ``runtime/artifact.py``):
manifest, IR text, a shared library linked with the system C compiler (or the object file
when no linker for the target exists) and a C header. ``runtime.load(path)`` runs it without
the compiler.

Modules: ``targets`` (Target, ``resolve``), ``cross`` (target machines, cross-compiled
modules), ``native`` (object file, linking), ``header`` (C header), ``builder`` (``build``,
``save``), ``loaded`` (artifact-backed ConcreteFunctions), ``pickling``. Nothing is imported
here, so that loading a cached artifact does not import the code generator.
"""
