"""What processes use, read from /proc: the resident memory and CPU seconds of a process and
its children, and the busy share of the whole machine's CPU. The load run reports them for its
servers and worker; `tests.load.abuse_cost` measures a server's CPU with them."""

from __future__ import annotations

import os
from pathlib import Path


def proc_figures(pid: int, *, children: bool = True) -> dict[str, float]:
    """Resident memory (MiB) and CPU seconds so far of a process and (unless `children` is
    False: a process that started the servers itself) its children."""
    rss = 0.0
    cpu = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for p in [pid, *(child_pids(pid) if children else [])]:
        try:
            status = Path(f"/proc/{p}/status").read_text()
            rss += int(next(line.split()[1] for line in status.splitlines()
                            if line.startswith("VmRSS:"))) / 1024
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            cpu += (int(fields[11]) + int(fields[12])) / tick
        except (OSError, StopIteration, IndexError, ValueError):
            continue
    return {"rss_mib": rss, "cpu_s": cpu}


def machine_cpu() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine so far, from /proc/stat."""
    try:
        fields = [float(x) for x in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    except (OSError, ValueError):
        return 0.0, 0.0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0.0)
    return sum(fields) - idle, sum(fields)


def child_pids(pid: int) -> list[int]:
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []
    found = [int(c) for c in children]
    for child in list(found):
        found += child_pids(child)
    return found


def command_cpu(command: str) -> float:
    """CPU seconds so far of every process of this name and of its children that ended
    (`postgres`: the server, its backends and those that closed, whichever database they
    served)."""
    tick = os.sysconf("SC_CLK_TCK")
    cpu = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        name, _, rest = text.partition("(")[2].rpartition(")")
        if name == command:
            fields = rest.split()
            cpu += sum(int(field) for field in fields[11:15]) / tick
    return cpu
