import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useSocket } from '../../api/socket';

// SPEC §9: the indicator goes out 5 s after the last typing event.
const TYPING_EXPIRY_MS = 5000;

// SPEC §7 wa:typing, sent to the ticket's room (joinChatBox).
type TypingEvent = { ticketId: number; chatJid: string; who: string; typing: boolean };

const TYPING_EVENT = 'wa:typing';

// Whether the contact is typing in this ticket's chat right now.
export const useIsTyping = (ticketId: number) => {
  const socket = useSocket();
  const [isTyping, setIsTyping] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const handle = (event: TypingEvent) => {
    if (event?.ticketId !== ticketId) return;
    clearTimeout(timer.current);
    if (!event.typing) {
      setIsTyping(false);
      return;
    }
    setIsTyping(true);
    timer.current = setTimeout(() => setIsTyping(false), TYPING_EXPIRY_MS);
  };
  const onTyping = useEffectEvent(handle);

  // The API sends it bare (not company-{id}-…), and only to this company's ticket room.
  useEffect(() => {
    if (!socket) return;
    const listener = (event: TypingEvent) => onTyping(event);
    socket.on(TYPING_EVENT, listener);
    return () => {
      socket.off(TYPING_EVENT, listener);
    };
  }, [socket]);
  useEffect(() => () => clearTimeout(timer.current), []);

  return isTyping;
};
