// The messages module's public surface: other modules import from '../messages' (this file) only.
export { assertWritable, queueOutgoing, sendMessages, visibleTicket } from './messages.service';
export { discardMedia, mediaTypeOf, mimetypeOf, type OutgoingMedia } from './message-form';
export { loadShownMessages, viewMessages } from './message-views';
