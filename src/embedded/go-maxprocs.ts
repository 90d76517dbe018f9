/**
 * How many cores each embedded Go server (FerretDB, the Temporal dev server) runs Go code on at
 * once (GOMAXPROCS). Go's default is every core, but these servers share the machine with the API,
 * the worker and the chain: on 2 cores, with both at 1, FerretDB spent ~10% less CPU for the same
 * work and the latency percentiles fell (docs/benchmarks.md, "Numbers behind the design"), since a Go runtime with
 * more processors than it gets cores spins and hands work between its threads. Unset, each gets
 * half the machine's cores, at least one (`EMBEDDED_GOMAXPROCS` sets a number instead).
 */
import { availableParallelism } from 'node:os';

export function embeddedGoMaxProcs(configured?: number, cores: number = availableParallelism()): number {
  return configured ?? Math.max(1, Math.floor(cores / 2));
}
