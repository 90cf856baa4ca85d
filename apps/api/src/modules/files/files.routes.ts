import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  FILE_LIST_MAX_OPTIONS,
  MESSAGE_MEDIA_MAX_BYTES,
  createdResponse,
  fileListSchema,
  fileListsPageSchema,
  fileListUpdateSchema,
  fileListViewSchema,
  filesListQuery,
  filesQuery,
  idParam,
  messageMediaExtensions,
  noContentResponse,
  okResponse,
} from '@atendi/shared';
import { z } from 'zod';
import { uploaderOf, type UploadRule } from '../../platform/uploads';
import {
  createFileList,
  deleteFileList,
  fileListOwner,
  getFileList,
  listAllFileLists,
  listFileLists,
  setOptionFiles,
  updateFileList,
} from './files.service';

const tags = ['files'];
// File lists are managed from the drawer's Administration part; every profile may read them.
const manage = { access: { permission: 'files:manage' as const } };
// A campaign sends these files over WhatsApp: what it takes as an attachment, a list's worth at once.
const fileRule: UploadRule & { maxFiles: number } = {
  extensions: messageMediaExtensions,
  maxBytes: MESSAGE_MEDIA_MAX_BYTES,
  maxFiles: FILE_LIST_MAX_OPTIONS,
};

// SPEC §7 "Files".
export const filesRoutes = async (root: FastifyInstance) => {
  const app = root.withTypeProvider<ZodTypeProvider>();

  const one = okResponse(fileListViewSchema);

  app.get(
    '/files',
    {
      schema: {
        summary: 'List file lists, a page at a time',
        operationId: 'listFileLists',
        tags,
        querystring: filesQuery,
        response: okResponse(fileListsPageSchema),
      },
    },
    async (request) => listFileLists(app.deps, request.auth, request.query),
  );
  app.get(
    '/files/list',
    {
      schema: {
        summary: 'List every file list (campaign picker)',
        operationId: 'listAllFileLists',
        tags,
        querystring: filesListQuery,
        response: okResponse(z.array(fileListViewSchema)),
      },
    },
    async (request) => listAllFileLists(app.deps, request.auth),
  );
  app.get(
    '/files/:id',
    {
      schema: {
        summary: 'Read one file list',
        operationId: 'getFileList',
        tags,
        params: idParam,
        response: one,
      },
    },
    async (request) => getFileList(app.deps, request.auth, request.params.id),
  );
  app.post(
    '/files',
    {
      schema: {
        summary: 'Create a file list',
        operationId: 'createFileList',
        tags,
        body: fileListSchema,
        response: createdResponse(fileListViewSchema),
      },
      config: manage,
    },
    async (request, reply) =>
      reply.status(201).send(await createFileList(app.deps, request.auth, request.body)),
  );
  app.put(
    '/files/:id',
    {
      schema: {
        summary: 'Change a file list and its entries',
        operationId: 'updateFileList',
        tags,
        params: idParam,
        body: fileListUpdateSchema,
        response: one,
      },
      config: manage,
    },
    async (request) => updateFileList(app.deps, request.auth, request.params.id, request.body),
  );
  app.delete(
    '/files/:id',
    {
      schema: {
        summary: 'Delete a file list and its files',
        operationId: 'deleteFileList',
        tags,
        params: idParam,
        response: noContentResponse,
      },
      config: manage,
    },
    async (request, reply) => {
      await deleteFileList(app.deps, request.auth, request.params.id);
      return reply.status(204).send();
    },
  );
  app.post(
    '/files/uploadList/:id',
    {
      schema: {
        summary: "Store the files of a file list's entries",
        operationId: 'uploadFileListFiles',
        tags,
        params: idParam,
        consumes: ['multipart/form-data'],
        response: one,
      },
      config: manage,
    },
    async (request) => {
      // Check the list first so a refused request stores nothing.
      const owner = await fileListOwner(app.deps, request.auth, request.params.id);
      const form = await app.deps.uploads.receiveMany(
        request,
        uploaderOf(request, owner),
        fileRule,
      );
      try {
        return await setOptionFiles(app.deps, request.auth, request.params.id, form);
      } catch (error) {
        for (const file of form.files) await app.deps.uploads.remove(owner, file.storedName);
        throw error;
      }
    },
  );
};
