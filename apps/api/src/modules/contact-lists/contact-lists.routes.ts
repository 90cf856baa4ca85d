import type { FastifyInstance } from 'fastify';
import { contactListsContract as contactLists } from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
import { uploadContactList } from './contact-list-upload';
import {
  createContactList,
  createContactListItem,
  deleteContactList,
  deleteContactListItem,
  getContactList,
  getContactListItem,
  listAllContactLists,
  listContactListItems,
  listContactLists,
  updateContactList,
  updateContactListItem,
} from './contact-lists.service';

// SPEC §7 "Contact lists" and "Contact list items": the campaigns area, for admins of a company whose
// plan has campaigns.
export const contactListsRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  const deps = app.deps;
  const config = {
    access: { permission: 'campaigns:manage' as const, planFeature: 'useCampaigns' as const },
  };

  route(contactLists.listContactLists, config, async (request) =>
    listContactLists(deps, request.auth, request.query),
  );
  route(contactLists.listAllContactLists, config, async (request) =>
    listAllContactLists(deps, request.auth),
  );
  route(contactLists.getContactList, config, async (request) =>
    getContactList(deps, request.auth, request.params.id),
  );
  route(contactLists.createContactList, config, async (request) =>
    createContactList(deps, request.auth, request.body),
  );
  route(contactLists.updateContactList, config, async (request) =>
    updateContactList(deps, request.auth, request.params.id, request.body),
  );
  route(contactLists.deleteContactList, config, async (request) => {
    await deleteContactList(deps, request.auth, request.params.id);
  });
  route(contactLists.uploadContactList, config, async (request) =>
    uploadContactList(deps, request.auth, request.params.id, request),
  );

  route(contactLists.listContactListItems, config, async (request) =>
    listContactListItems(deps, request.auth, request.query),
  );
  route(contactLists.getContactListItem, config, async (request) =>
    getContactListItem(deps, request.auth, request.params.id),
  );
  route(contactLists.createContactListItem, config, async (request) =>
    createContactListItem(deps, request.auth, request.body),
  );
  route(contactLists.updateContactListItem, config, async (request) =>
    updateContactListItem(deps, request.auth, request.params.id, request.body),
  );
  route(contactLists.deleteContactListItem, config, async (request) => {
    await deleteContactListItem(deps, request.auth, request.params.id);
  });
};
