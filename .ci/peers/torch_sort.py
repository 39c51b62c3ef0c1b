#!/usr/bin/env python3
"""Peer timings on the device machine for `bench sort` (and the histogram of
`bench primitives`): a device-to-device copy, torch.sort(stable=True) of int32
and float32 keys (CUB's radix sort underneath; it always returns the int64
permutation too, so it compares with radix.SortPairs more than SortKeys), and
torch.histc (256 even bins), for the same sizes, so that the ratios come from
one run on one GPU.

    python3 .gl/torch_sort.py              # sizes 2^16 .. 2^28, every other power
    python3 torch_sort.py 24 26 28         # chosen powers of two
Prints one line per size and kind: elements, copy time, the primitive's time,
Gelem/s, and the copy's time / the primitive's (1.00 = copy speed).
"""
import sys
import torch

def median_ms(fn, reps=15):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(reps):
        start.record(); fn(); end.record(); torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
    return times[len(times) // 2]

def check_sorted(keys, out, idx):
    # A stable sort: keys ascending, and equal keys in index order.
    assert bool((out[1:] >= out[:-1]).all()), "torch.sort: keys out of order"
    assert torch.equal(keys[idx], out), "torch.sort: indices do not match keys"
    same = out[1:] == out[:-1]
    assert bool((idx[1:][same] > idx[:-1][same]).all()), "torch.sort: not stable"

def main():
    powers = [int(a) for a in sys.argv[1:]] or [16, 18, 20, 22, 24, 26, 28]
    print("device:", torch.cuda.get_device_name(0), "torch", torch.__version__)
    print(f"{'n':>10} {'kind':<22} {'copy_us':>9} {'time_us':>10} {'Gelem/s':>9} {'vs_copy':>8}")
    for p in powers:
        n = 1 << p
        g = torch.Generator(device="cuda").manual_seed(p)
        ints = torch.randint(-2**31, 2**31 - 1, (n,), dtype=torch.int32, device="cuda", generator=g)
        floats = torch.rand(n, device="cuda", generator=g) * 2 - 1
        y = torch.empty_like(ints)
        copy = median_ms(lambda: y.copy_(ints))
        rows = []
        for name, keys in (("int32", ints), ("float32", floats)):
            out, idx = torch.sort(keys, stable=True)
            check_sorted(keys, out, idx)
            rows.append((f"sort {name} keys+index", median_ms(lambda: torch.sort(keys, stable=True))))
        # 8-bit digits of the keys: the histogram primitive's usual case.
        rows.append(("histc float32 256 bins", median_ms(lambda: torch.histc(floats, bins=256, min=-1, max=1))))
        h = torch.histc(floats, bins=256, min=-1, max=1)
        assert int(h.sum().item()) == n, "histc: counts do not add up"
        for name, t in rows:
            print(f"{n:>10} {name:<22} {copy*1e3:>9.1f} {t*1e3:>10.1f} {n/t/1e6:>9.3f} {copy/t:>8.3f}")
        del ints, floats, y
        torch.cuda.empty_cache()

if __name__ == "__main__":
    main()
