// The whatsapps module's public surface: other modules import from '../whatsapps' (this file) only.
export { findWhatsapp, getDefaultWhatsapp } from './whatsapps.service';
