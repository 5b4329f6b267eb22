/**
 * Turns left 'running' by a process that is gone (killed, crashed, the machine slept and never woke it).
 * At start, each is ended as stopped and its session made idle again, so the timeline does not show a
 * turn running forever and the session takes new turns. A turn whose process is still alive on this
 * machine (another Sightline sharing the home) is left alone, and so is one started on another machine,
 * whose pids mean nothing here.
 */
import { hostname } from 'node:os';
import type { RunningTurn, Storage } from '../storage/index.js';

export function endAbandonedTurns(storage: Storage, isAlive: (pid: number) => boolean = processIsAlive): string[] {
  const thisHost = hostname();
  const ended: string[] = [];
  for (const turn of storage.turns.listRunning()) {
    if (!isAbandoned(turn, thisHost, isAlive)) continue;
    storage.endAbandonedTurn(turn);
    ended.push(turn.id);
  }
  return ended;
}

function isAbandoned(turn: RunningTurn, thisHost: string, isAlive: (pid: number) => boolean): boolean {
  // Rows from before owners were recorded: nothing could be running them after an upgrade.
  if (turn.ownerPid === null) return true;
  if (turn.ownerHost !== null && turn.ownerHost !== thisHost) return false;
  return turn.ownerPid !== process.pid && !isAlive(turn.ownerPid);
}

/** Signal 0 checks that a process exists without touching it; EPERM means it exists but is not ours. */
function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}
