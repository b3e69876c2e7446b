"""What the pipeline learns about a function from its IR, right after the stage that shows it.

After ``frontend``: the compiled ``func.func``'s name and types, whether it returns a tuple
(``grafo.result_tuple``) or a nested structure (``grafo.result_structure``), the module
globals it rebinds (``grafo.globals``), and the ``compiler.Variable`` s it reads and updates
(hidden trailing parameters, ``frontend/variables.py``). After ``optimized``: the parameters
whose elements it writes (``np.write_back``, ``written_parameters``). After ``loops``: the
loop-level function type (memref inputs and results, for the artifact's ABI records).

These are kept on the compiled function (``CompiledFunction``) and in artifact manifests, so
no later step reads them back out of printed IR.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..dialects import func
from ..dialects import np as npd


@dataclass
class Facts:
    """The facts of one compiled function (see the module docstring)."""

    function: str = ""                 # sym_name of the compiled func.func
    frontend_type: object = None       # its tensor-level FunctionType
    loops_type: object = None          # its loop-level FunctionType
    result_types: list = field(default_factory=list)   # tensor-level result types
    result_tuple: bool = False         # the Python function returns a tuple
    result_structure: str | None = None   # see runtime.results; None: result_tuple says it
    global_keys: list = field(default_factory=list)    # "module:name" it rebinds
    variables: list = field(default_factory=list)      # compiler.Variable s, in hidden order
    written: list = field(default_factory=list)        # parameters whose elements it writes

    def learn_frontend(self, module, fn) -> None:
        """The facts of the tensor-level ``module`` of the Python function ``fn``."""
        from ..frontend.variables import find_variables
        func = module.functions()[0]
        self.function = func.sym_name
        self.frontend_type = func.function_type
        self.result_types = list(func.function_type.results)
        self.result_tuple = "grafo.result_tuple" in func.attributes
        structure = func.attributes.get("grafo.result_structure")
        self.result_structure = None if structure is None else structure.value
        keys = func.attributes.get("grafo.globals")
        self.global_keys = [] if keys is None else [k.value for k in keys.value]
        self.variables = find_variables(fn)

    def learn_optimized(self, module) -> None:
        self.written = written_parameters(module)

    def learn_loops(self, module) -> None:
        self.loops_type = {f.sym_name: f for f in module.functions()}[self.function].function_type


def written_parameters(module) -> list:
    """Positions of the parameters of the tensor-level function in ``module`` whose elements
    it writes (``np.write_back``), Variables' hidden parameters included."""
    params, written = {}, set()
    for op in module.walk():
        if isinstance(op, func.FuncOp):
            params = {id(a): k for k, a in enumerate(op.body.args)}
        elif isinstance(op, npd.WriteBackOp) and id(op.param) in params:
            written.add(params[id(op.param)])
    return sorted(written)
