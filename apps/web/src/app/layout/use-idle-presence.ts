import { useEffect, useRef } from 'react';
import { getSocket, useSocket } from '../../api/socket';

// Issue 36: a tab nobody used for 5 minutes tells the server it is idle (a hidden tab has no use, so
// one hidden that long is idle too); once every tab of the user is, the server shows them away.
export const IDLE_AFTER_MS = 5 * 60_000;

// What a person does in the tab. Not `scroll`: the app scrolls on its own (a chat following its new
// messages); the wheel, touch and keys are the user's scrolling.
const ACTIVITY_EVENTS = [
  'pointerdown',
  'pointermove',
  'keydown',
  'wheel',
  'touchstart',
  'touchmove',
] as const;

const LISTENER_OPTIONS = { capture: true, passive: true } as const;

// Tells the server, over the socket, when this tab becomes idle ({ idle: true }) and when it is in
// use again ({ idle: false }): only on a change, and only to a connected socket; and when it is
// hidden or shown ({ hidden }). A socket that (re)connects starts as in use and in front, so it hears
// { idle: true } and { hidden: true } again when the tab is so. Mounted once, in the authenticated
// layout.
export const useIdlePresence = () => {
  const socket = useSocket();
  const isIdle = useRef(false);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tell = (idle: boolean) => {
      isIdle.current = idle;
      const current = getSocket();
      if (current?.connected) current.emit('presence', { idle });
    };
    const startCountdown = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (!isIdle.current) tell(true);
      }, IDLE_AFTER_MS);
    };
    const onActivity = () => {
      // Nobody uses a hidden tab (whatever it hears): its countdown goes on.
      if (document.hidden) return;
      if (isIdle.current) tell(false);
      startCountdown();
    };
    // The server hears the tab go to the background and back (a chat open in a hidden tab is not
    // being looked at: its pushes reach the user's phone). Coming back to the tab is using it.
    const onVisibilityChange = () => {
      const current = getSocket();
      if (current?.connected) current.emit('presence', { hidden: document.hidden });
      if (!document.hidden) onActivity();
    };

    ACTIVITY_EVENTS.forEach((event) =>
      window.addEventListener(event, onActivity, LISTENER_OPTIONS),
    );
    document.addEventListener('visibilitychange', onVisibilityChange);
    startCountdown();
    return () => {
      clearTimeout(timer);
      ACTIVITY_EVENTS.forEach((event) =>
        window.removeEventListener(event, onActivity, LISTENER_OPTIONS),
      );
      document.removeEventListener('visibilitychange', onVisibilityChange);
    };
  }, []);

  useEffect(() => {
    if (!socket) return;
    // A new socket starts as in use and in front.
    const repeatIdle = () => {
      if (isIdle.current) socket.emit('presence', { idle: true });
      if (document.hidden) socket.emit('presence', { hidden: true });
    };
    socket.on('connect', repeatIdle);
    return () => {
      socket.off('connect', repeatIdle);
    };
  }, [socket]);
};
