import type { FastifyInstance } from 'fastify';
import {
  filesContract as files,
  FILE_LIST_MAX_OPTIONS,
  MESSAGE_MEDIA_MAX_BYTES,
  messageMediaExtensions,
} from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
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

// File lists are managed from the drawer's Administration part; every profile may read them.
const manage = { access: { permission: 'files:manage' as const } };
// A campaign sends these files over WhatsApp: what it takes as an attachment, a list's worth at once.
const fileRule: UploadRule & { maxFiles: number } = {
  extensions: messageMediaExtensions,
  maxBytes: MESSAGE_MEDIA_MAX_BYTES,
  maxFiles: FILE_LIST_MAX_OPTIONS,
};

// SPEC §7 "Files".
export const filesRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);

  route(files.listFileLists, async (request) =>
    listFileLists(app.deps, request.auth, request.query),
  );
  route(files.listAllFileLists, async (request) => listAllFileLists(app.deps, request.auth));
  route(files.getFileList, async (request) =>
    getFileList(app.deps, request.auth, request.params.id),
  );
  route(files.createFileList, manage, async (request) =>
    createFileList(app.deps, request.auth, request.body),
  );
  route(files.updateFileList, manage, async (request) =>
    updateFileList(app.deps, request.auth, request.params.id, request.body),
  );
  route(files.deleteFileList, manage, async (request) => {
    await deleteFileList(app.deps, request.auth, request.params.id);
  });
  route(files.uploadFileListFiles, manage, async (request) => {
    // Check the list first so a refused request stores nothing.
    const owner = await fileListOwner(app.deps, request.auth, request.params.id);
    const form = await app.deps.uploads.receiveMany(request, uploaderOf(request, owner), fileRule);
    try {
      return await setOptionFiles(app.deps, request.auth, request.params.id, form);
    } catch (error) {
      for (const file of form.files) await app.deps.uploads.remove(owner, file.storedName);
      throw error;
    }
  });
};
