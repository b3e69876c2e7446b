"""Functions whose IR shows how NumPy's operators convert their operands: ``**`` fast paths,
comparisons with out-of-range Python ints, scalars stored into integer arrays."""


def power_fast_paths(flags, x):
    return flags ** 2, flags ** 3, x ** -1


def compare_out_of_range(u):
    return u == 256, u < 1000, u > 7


def compare_run_time_int(u, n):
    r = u == 0
    for i in range(n):
        r = u < i
    return r


def compare_mixed_sign(u, s):
    return u < s


def store_float(buf, v):
    buf[1] = v
    return buf
