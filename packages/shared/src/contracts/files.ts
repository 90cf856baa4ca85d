import { z } from 'zod';
import { defineRoutes } from '../contract';
import {
  fileListSchema,
  fileListUpdateSchema,
  fileListViewSchema,
  fileListsPageSchema,
  filesListQuery,
  filesQuery,
} from '../files';
import { createdResponse, noContentResponse, okResponse } from '../responses';
import { idParam } from '../schemas';

const one = okResponse(fileListViewSchema);

// SPEC §7 Files: named lists of files a campaign sends; every profile reads them, admins manage them.
export const filesContract = defineRoutes('files', {
  listFileLists: {
    method: 'GET',
    path: '/files',
    summary: 'List file lists, a page at a time',
    query: filesQuery,
    response: okResponse(fileListsPageSchema),
  },
  listAllFileLists: {
    method: 'GET',
    path: '/files/list',
    summary: 'List every file list (campaign picker)',
    query: filesListQuery,
    response: okResponse(z.array(fileListViewSchema)),
  },
  getFileList: {
    method: 'GET',
    path: '/files/:id',
    summary: 'Read one file list',
    params: idParam,
    response: one,
  },
  createFileList: {
    method: 'POST',
    path: '/files',
    summary: 'Create a file list',
    body: fileListSchema,
    response: createdResponse(fileListViewSchema),
  },
  updateFileList: {
    method: 'PUT',
    path: '/files/:id',
    summary: 'Change a file list and its entries',
    params: idParam,
    body: fileListUpdateSchema,
    response: one,
  },
  deleteFileList: {
    method: 'DELETE',
    path: '/files/:id',
    summary: 'Delete a file list and its files',
    params: idParam,
    response: noContentResponse,
  },
  uploadFileListFiles: {
    method: 'POST',
    path: '/files/uploadList/:id',
    summary: "Store the files of a file list's entries",
    params: idParam,
    consumes: ['multipart/form-data'],
    response: one,
  },
});
