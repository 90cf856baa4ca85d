// The tags module's public surface: other modules import from '../tags' (this file) only.
export { addTicketTag, moveToLaneIn, tagTicketIn } from './tags.service';
