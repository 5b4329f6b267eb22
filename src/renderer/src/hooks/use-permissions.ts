/**
 * The OS permissions the desktop operator needs, as the main process reports them: asked once when the page
 * opens (the first start's check), replaced by each `permissions` event (the app re-checks when its window
 * regains the focus), and asked again on request ("Check again", the only way over HTTP, where no event comes).
 */
import { useCallback, useEffect, useState } from 'react';
import type { PermissionStatus, SettingsPermission } from '../../../shared/permissions.js';
import type { AppApiClient } from '../api/index.js';
import { useLiveEvents } from './use-live-events.js';

export type PermissionsState =
  | { status: 'loading' }
  | { status: 'ready'; permissions: PermissionStatus }
  | { status: 'failed'; message: string };

export interface Permissions {
  state: PermissionsState;
  recheck: () => void;
  /** Opens the permission's System Settings pane; rejects with the main process's reason. */
  openSettings: (permission: SettingsPermission) => Promise<void>;
}

export function usePermissions(client: AppApiClient | null): Permissions {
  const [state, setState] = useState<PermissionsState>({ status: 'loading' });

  const recheck = useCallback(() => {
    if (client === null) return;
    client.permissionStatus().then(
      (permissions) => setState({ status: 'ready', permissions }),
      (error: unknown) => setState({ status: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
  }, [client]);

  useEffect(recheck, [recheck]);

  useLiveEvents(client, (event) => {
    if (event.type === 'permissions') setState({ status: 'ready', permissions: event.status });
  });

  const openSettings = useCallback(
    async (permission: SettingsPermission) => {
      if (client === null) return;
      await client.openPermissionSettings(permission);
    },
    [client],
  );

  return { state, recheck, openSettings };
}
