"""Functions whose IR shows how NumPy's operators convert their operands: ``**`` fast
paths."""


def power_fast_paths(flags, x):
    return flags ** 2, flags ** 3, x ** -1
