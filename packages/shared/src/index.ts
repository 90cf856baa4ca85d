export * from './constants';
export * from './errors';
export * from './messages';
export * from './permissions';
export * from './schemas';
export * from './settings';
export * from './whatsapp';
export * from './tickets';
