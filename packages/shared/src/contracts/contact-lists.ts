import { z } from 'zod';
import { defineRoutes } from '../contract';
import {
  contactListItemSchema,
  contactListItemsPageSchema,
  contactListItemsQuery,
  contactListItemUpdateSchema,
  contactListItemViewSchema,
  contactListSchema,
  contactListUploadResultSchema,
  contactListsPageSchema,
  contactListsQuery,
  contactListViewSchema,
} from '../contact-lists';
import { createdResponse, noContentResponse, okResponse } from '../responses';
import { idParam } from '../schemas';

const list = okResponse(contactListViewSchema);
const item = okResponse(contactListItemViewSchema);

// SPEC §7 Contact lists and Contact list items: the audiences of campaigns, for admins of a company
// whose plan has campaigns.
export const contactListsContract = defineRoutes('contact lists', {
  listContactLists: {
    method: 'GET',
    path: '/contact-lists',
    summary: 'List contact lists, a page at a time',
    query: contactListsQuery,
    response: okResponse(contactListsPageSchema),
  },
  listAllContactLists: {
    method: 'GET',
    path: '/contact-lists/list',
    summary: 'List every contact list (campaign picker)',
    response: okResponse(z.array(contactListViewSchema)),
  },
  getContactList: {
    method: 'GET',
    path: '/contact-lists/:id',
    summary: 'Read one contact list',
    params: idParam,
    response: list,
  },
  createContactList: {
    method: 'POST',
    path: '/contact-lists',
    summary: 'Create a contact list',
    body: contactListSchema,
    response: createdResponse(contactListViewSchema),
  },
  updateContactList: {
    method: 'PUT',
    path: '/contact-lists/:id',
    summary: 'Rename a contact list',
    params: idParam,
    body: contactListSchema,
    response: list,
  },
  deleteContactList: {
    method: 'DELETE',
    path: '/contact-lists/:id',
    summary: 'Delete a contact list and its contacts',
    params: idParam,
    response: noContentResponse,
  },
  uploadContactList: {
    method: 'POST',
    path: '/contact-lists/:id/upload',
    summary: "Add a spreadsheet's rows to a contact list",
    params: idParam,
    consumes: ['multipart/form-data'],
    response: okResponse(contactListUploadResultSchema),
  },
  listContactListItems: {
    method: 'GET',
    path: '/contact-list-items',
    summary: "List a contact list's contacts, a page at a time",
    query: contactListItemsQuery,
    response: okResponse(contactListItemsPageSchema),
  },
  getContactListItem: {
    method: 'GET',
    path: '/contact-list-items/:id',
    summary: 'Read one contact of a contact list',
    params: idParam,
    response: item,
  },
  createContactListItem: {
    method: 'POST',
    path: '/contact-list-items',
    summary: 'Add a contact to a contact list',
    body: contactListItemSchema,
    response: createdResponse(contactListItemViewSchema),
  },
  updateContactListItem: {
    method: 'PUT',
    path: '/contact-list-items/:id',
    summary: 'Change a contact of a contact list',
    params: idParam,
    body: contactListItemUpdateSchema,
    response: item,
  },
  deleteContactListItem: {
    method: 'DELETE',
    path: '/contact-list-items/:id',
    summary: 'Remove a contact from a contact list',
    params: idParam,
    response: noContentResponse,
  },
});
