/**
 * Re-checks the permissions when the person may have changed them (the app's window regained the focus,
 * typically on the way back from System Settings) and tells the renderer only when the answer changed, so a
 * focus change without news sends nothing.
 */
import type { PermissionStatus } from '../../../shared/permissions.js';

export class PermissionWatch {
  private last: string | undefined;

  constructor(
    private readonly check: () => PermissionStatus,
    private readonly publish: (status: PermissionStatus) => void,
  ) {}

  /** Checks now and remembers the answer (the first start's check), without publishing it. */
  current(): PermissionStatus {
    const status = this.check();
    this.last = JSON.stringify(status);
    return status;
  }

  /** Checks again; publishes the new answer when it differs from the last one. Returns it. */
  recheck(): PermissionStatus {
    const status = this.check();
    const serialized = JSON.stringify(status);
    if (serialized !== this.last) {
      this.last = serialized;
      this.publish(status);
    }
    return status;
  }
}
