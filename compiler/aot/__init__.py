"""Ahead-of-time compilation: artifacts (``save``) and the compiled functions backed by
artifacts that the on-disk cache and pickling produce.

``save(path, functions)`` writes one artifact (the format of ``runtime/artifact.py``):
manifest, IR text, a shared library linked with the system C compiler (or the object file
when no linker for the target exists) and a C header. ``runtime.load(path)`` runs it without
the compiler. Code for a target other than this CPU comes from the object backend
(``compiler/backend/cpu.py``); targets are ``compiler/targets.py``'s.

Modules: ``native`` (object file, linking), ``header`` (C header), ``builder`` (``build``,
``save``), ``loaded`` (artifact-backed compiled functions), ``pickling``, ``sources``
(where an entry's source was). They read the public attributes of the ConcreteFunctions they
are given and import nothing of the API above them (``api``, ``function``, ``concrete``,
``cache``). Nothing is imported here, so that loading a cached artifact does not import the
code generator.
"""
