/** Failures to reach a display, with messages fit to show a user as is. */

export class DisplayUnavailableError extends Error {
  constructor(detail: string) {
    super(
      `no display to capture (${detail}). Sightline needs a graphical session: on Linux, is DISPLAY set ` +
        `and the X server running (under Wayland, through XWayland)?`,
    );
    this.name = 'DisplayUnavailableError';
  }
}

export class UnknownDisplayError extends Error {
  constructor(
    readonly displayId: number,
    available: string,
  ) {
    super(`no display has id ${displayId} (perception.displayId); available: ${available}`);
    this.name = 'UnknownDisplayError';
  }
}
