import { useState, type ReactElement } from 'react';
import { missingPermissions, type PermissionCheck, type SettingsPermission } from '../../../shared/permissions.js';
import type { Permissions } from '../hooks/use-permissions.js';

export interface PermissionsPanelProps {
  permissions: Permissions;
  /** Whether panes can be opened from here: only the desktop app (IPC) can; a browser tab cannot. */
  canOpenSettings: boolean;
}

/**
 * What the desktop operator still needs from the OS, each with what goes wrong without it and a button to
 * the System Settings pane where it is granted. Shown only while something is missing: a desktop run would be
 * refused until then. It updates by itself when the window regains the focus; "Check again" does it at once.
 */
export function PermissionsPanel({ permissions, canOpenSettings }: PermissionsPanelProps): ReactElement | null {
  const [openError, setOpenError] = useState<string | null>(null);
  const { state } = permissions;
  if (state.status !== 'ready') return null;
  const missing = missingPermissions(state.permissions);
  if (missing.length === 0) return null;

  const open = (permission: SettingsPermission): void => {
    setOpenError(null);
    permissions.openSettings(permission).catch((error: unknown) => setOpenError(error instanceof Error ? error.message : String(error)));
  };

  return (
    <section className="permissions-panel" aria-labelledby="permissions-panel-title">
      <div className="permissions-panel-header">
        <h2 id="permissions-panel-title" className="permissions-panel-title">
          {missing.length === 1 ? 'Sightline needs one more permission' : `Sightline needs ${missing.length} more permissions`}
        </h2>
        <button type="button" className="button button-small" onClick={permissions.recheck}>
          Check again
        </button>
      </div>
      <p className="permissions-panel-intro">Until then, tasks on the desktop are refused rather than run blind.</p>
      <ul className="permissions-list" aria-live="polite">
        {missing.map((check) => (
          <PermissionItem key={check.permission} check={check} canOpenSettings={canOpenSettings} onOpen={open} />
        ))}
      </ul>
      {openError === null ? null : (
        <p className="permissions-error" role="alert">
          {openError}
        </p>
      )}
    </section>
  );
}

function PermissionItem({
  check,
  canOpenSettings,
  onOpen,
}: {
  check: PermissionCheck;
  canOpenSettings: boolean;
  onOpen: (permission: SettingsPermission) => void;
}): ReactElement {
  const settings = check.settings;
  const descriptionId = `permission-${check.permission}-remedy`;
  return (
    <li className="permission-item">
      <div className="permission-text">
        <h3 className="permission-label">{check.label}</h3>
        <p className="permission-consequence">{capitalized(check.consequence)}.</p>
        {check.remedy === undefined ? null : (
          <p id={descriptionId} className="permission-remedy">
            To fix: {check.remedy}.
          </p>
        )}
      </div>
      {settings !== null && canOpenSettings ? (
        <button
          type="button"
          className="button permission-open"
          {...(check.remedy === undefined ? {} : { 'aria-describedby': descriptionId })}
          onClick={() => onOpen(settings)}>
          Open {check.label} settings
        </button>
      ) : null}
    </li>
  );
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
