// The reactions WhatsApp offers first (issue 39): the chat's message menu and the simulator's phone
// offer the same six.
export const QUICK_REACTIONS = ['👍', '❤️', '😂', '😮', '😢', '🙏'] as const;
