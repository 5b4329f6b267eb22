#!/usr/bin/python3
"""
Sightline's focus reader for Linux: which accessible element has the keyboard focus, by AT-SPI (libatspi
through PyGObject). Long-running: started once per desktop operator, it follows the focus events from the
accessibility bus, and answers one JSON line on stdout for each line on stdin:

  stdin:  {"id": 1}
  stdout: {"id": 1, "role": "password text", "states": ["editable", "focused", ...], "application": "Chromium", "pid": 4242}
          {"id": 1, "role": null}                          (nothing known to have the focus)

Its first line says whether it can work: {"ready": true}, or {"unavailable": "<why>"} and it exits. It exits
when stdin closes. The caller classifies roles and applications (src/main/operators/focus/); this only reads.
"""
import json
import os
import sys

try:
    import gi

    gi.require_version("Atspi", "2.0")
    from gi.repository import Atspi, Gio, GLib
except (ImportError, ValueError) as error:
    print(json.dumps({"unavailable": "PyGObject or the Atspi 2.0 typelib is missing: %s" % error}), flush=True)
    sys.exit(0)

# Each AT-SPI call to an application waits at most this long: a hung application must not hang the answer.
CALL_TIMEOUT_MS = 700
# A walk of the accessible trees (when no focus event has been seen yet) gives up after this many elements.
MAX_WALKED_ELEMENTS = 4000


def session_bus_known():
    """Whether a session bus is named: without one GDBus would autolaunch a private bus nobody stops."""
    if os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        return True
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    return bool(runtime) and os.path.exists(os.path.join(runtime, "bus"))


def accessibility_bus_address():
    """The a11y bus's address, asked of the session bus; switches toolkit accessibility on as it goes."""
    session = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    proxy = Gio.DBusProxy.new_sync(session, Gio.DBusProxyFlags.DO_NOT_AUTO_START_AT_CONSTRUCTION, None,
                                   "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", None)
    address = proxy.call_sync("GetAddress", None, Gio.DBusCallFlags.NONE, 2000, None).unpack()[0]
    # Applications expose their accessible trees only while org.a11y.Status.IsEnabled is true (what a screen
    # reader sets). Those started afterwards see it at once; running GTK and Chromium apps follow the change.
    session.call_sync("org.a11y.Bus", "/org/a11y/bus", "org.freedesktop.DBus.Properties", "Set",
                      GLib.Variant("(ssv)", ("org.a11y.Status", "IsEnabled", GLib.Variant("b", True))),
                      None, Gio.DBusCallFlags.NONE, 2000, None)
    return address


def has_state(element, state):
    try:
        return element.get_state_set().contains(state)
    except GLib.Error:
        return False


def describe(element):
    states = element.get_state_set().get_states()
    application = element.get_application()
    return {
        "role": element.get_role_name(),
        "states": sorted(state.value_nick for state in states),
        "application": application.get_name() if application is not None else None,
        "pid": application.get_process_id() if application is not None else None,
    }


def walk_for_focus():
    """The focused element, looked for in each application's active windows: for the time before any event."""
    desktop = Atspi.get_desktop(0)
    budget = [MAX_WALKED_ELEMENTS]

    def search(element):
        if budget[0] <= 0:
            return None
        budget[0] -= 1
        try:
            count = element.get_child_count()
        except GLib.Error:
            return None
        for index in range(count):
            try:
                child = element.get_child_at_index(index)
            except GLib.Error:
                continue
            if child is not None:
                found = search(child)
                if found is not None:
                    return found
        # The deepest focused element wins: a web document is focused along with the field inside it.
        return element if has_state(element, Atspi.StateType.FOCUSED) else None

    for app_index in range(desktop.get_child_count()):
        application = desktop.get_child_at_index(app_index)
        if application is None:
            continue
        try:
            windows = [application.get_child_at_index(i) for i in range(application.get_child_count())]
        except GLib.Error:
            continue
        for window in windows:
            if window is not None and has_state(window, Atspi.StateType.ACTIVE):
                found = search(window)
                if found is not None:
                    return found
    return None


class FocusFollower:
    def __init__(self):
        self.focused = None

    def on_event(self, event):
        if event.type.startswith("object:state-changed:focused") and event.detail1 != 1:
            if self.focused is not None and event.source == self.focused:
                self.focused = None
            return
        self.focused = event.source

    def answer(self, request_id):
        element = self.focused
        if element is None or not has_state(element, Atspi.StateType.FOCUSED):
            element = walk_for_focus()
            self.focused = element
        if element is None:
            return {"id": request_id, "role": None}
        try:
            return dict({"id": request_id}, **describe(element))
        except GLib.Error as error:
            return {"id": request_id, "role": None, "error": str(error)}


def main():
    if not session_bus_known():
        print(json.dumps({"unavailable": "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)"}), flush=True)
        return
    try:
        accessibility_bus_address()
    except GLib.Error as error:
        print(json.dumps({"unavailable": "no accessibility bus (org.a11y.Bus on the session bus): %s" % error.message}), flush=True)
        return
    Atspi.init()
    Atspi.set_timeout(CALL_TIMEOUT_MS, CALL_TIMEOUT_MS)
    follower = FocusFollower()
    listener = Atspi.EventListener.new(follower.on_event)
    listener.register("object:state-changed:focused")
    listener.register("focus:")
    loop = GLib.MainLoop()

    def on_input(channel, condition):
        # Read through the channel, not sys.stdin: its buffer is the one the watch looks at.
        try:
            line = channel.readline()
        except GLib.Error:
            line = ""
        if line == "":
            loop.quit()
            return False
        try:
            request_id = json.loads(line).get("id")
        except (ValueError, AttributeError):
            request_id = None
        try:
            answer = follower.answer(request_id)
        except Exception as error:  # noqa: BLE001 - a callback that raises loses its watch: answer, and keep listening
            follower.focused = None
            answer = {"id": request_id, "role": None, "error": str(error)}
        print(json.dumps(answer), flush=True)
        return True

    GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.PRIORITY_DEFAULT,
                      GLib.IOCondition.IN | GLib.IOCondition.HUP, on_input)
    print(json.dumps({"ready": True}), flush=True)
    loop.run()


if __name__ == "__main__":
    main()
