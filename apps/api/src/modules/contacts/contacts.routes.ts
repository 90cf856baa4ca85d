import type { FastifyInstance } from 'fastify';
import { contactsContract as contacts } from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
import {
  createContact,
  deleteContact,
  getContact,
  listContactOptions,
  listContacts,
  updateContact,
} from './contacts.service';
import { importPhoneContacts, uploadContacts } from './contacts.upload';

export const contactsRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  const { db } = app.deps;

  route(contacts.listContacts, async (request) => listContacts(db, request.auth, request.query));
  route(contacts.listContactOptions, async (request) =>
    listContactOptions(db, request.auth, request.query.companyId),
  );
  route(contacts.getContact, async (request) => getContact(db, request.auth, request.params.id));
  route(contacts.createContact, async (request) =>
    createContact(app.deps, request.auth, request.body),
  );
  // Rows of a spreadsheet (the web reads the .xlsx); a refused row is listed, never fatal.
  route(contacts.uploadContacts, async (request) =>
    uploadContacts(app.deps, request.auth, request.body),
  );
  // The phone's address book (linked-device connections); refused rows are listed the same way.
  route(contacts.importPhoneContacts, async (request) =>
    importPhoneContacts(app.deps, request.auth, request.body.whatsappId),
  );
  route(contacts.updateContact, async (request) =>
    updateContact(app.deps, request.auth, request.params.id, request.body),
  );
  route(
    contacts.deleteContact,
    { access: { permission: 'contacts-page:deleteContact' } },
    async (request) => {
      await deleteContact(app.deps, request.auth, request.params.id);
    },
  );
};
