import { asc, ilike, inArray } from 'drizzle-orm';
import { z } from 'zod';
import {
  FILES_PAGE_SIZE,
  fileListOptionSchema,
  type FileListEvent,
  type FileListInput,
  type FileListOptionView,
  type FileListUpdateInput,
  type FileListView,
} from '@atendi/shared';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { fileListOptions, fileLists } from '../../db/schema';
import type { AuthContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { containsPattern } from '../../platform/like';
import { foundOr404, ofCompany, ownedRow } from '../../platform/tenancy';
import type { ReceivedForm, Uploads } from '../../platform/uploads';

// File lists (SPEC §3 File list, §7 Files): a name, a message and the files a campaign sends with it.

type Deps = Pick<AppDeps, 'db' | 'realtime' | 'uploads'>;
type ListRow = typeof fileLists.$inferSelect;
type OptionRow = typeof fileListOptions.$inferSelect;

const serializeOption = (row: OptionRow, uploads: Uploads): FileListOptionView => ({
  id: row.id,
  name: row.name,
  path: row.path,
  mediaType: row.mediaType,
  url: uploads.urlFor(row.companyId, row.path),
});

const serializeList = (row: ListRow, options: OptionRow[], uploads: Uploads): FileListView => ({
  id: row.id,
  name: row.name,
  message: row.message,
  companyId: row.companyId,
  options: options.map((option) => serializeOption(option, uploads)),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const optionsOf = async (db: Db, listIds: number[]) =>
  listIds.length
    ? db
        .select()
        .from(fileListOptions)
        .where(inArray(fileListOptions.fileListId, listIds))
        .orderBy(asc(fileListOptions.id))
    : [];

// The lists as the API answers them, their options read in one query.
const withOptions = async (deps: Deps, rows: ListRow[]) => {
  const options = await optionsOf(
    deps.db,
    rows.map((row) => row.id),
  );
  return rows.map((row) =>
    serializeList(
      row,
      options.filter((option) => option.fileListId === row.id),
      deps.uploads,
    ),
  );
};

const findList = async (deps: Deps, ctx: AuthContext, id: number) =>
  foundOr404(
    (
      await deps.db
        .select()
        .from(fileLists)
        .where(ownedRow(fileLists, id, ctx))
    )[0],
  );

// Inside a transaction: the list, locked so two changes of its options never interleave.
const lockList = async (tx: Db, ctx: AuthContext, id: number) =>
  foundOr404(
    (
      await tx
        .select()
        .from(fileLists)
        .where(ownedRow(fileLists, id, ctx))
        .for('update')
    )[0],
  );

const loadView = async (deps: Deps, ctx: AuthContext, id: number) =>
  (await withOptions(deps, [await findList(deps, ctx, id)]))[0];

const emitFileList = (deps: Deps, ctx: AuthContext, event: FileListEvent) =>
  deps.realtime.toCompany(ctx.companyId).emit('file', event);

const removeFiles = async (deps: Deps, ctx: AuthContext, options: Pick<OptionRow, 'path'>[]) => {
  for (const option of options) await deps.uploads.remove(ctx.companyId, option.path);
};

// Every list of the company, for pickers (the campaign form).
export const listAllFileLists = async (deps: Deps, ctx: AuthContext) =>
  withOptions(
    deps,
    await deps.db
      .select()
      .from(fileLists)
      .where(ofCompany(fileLists, ctx))
      .orderBy(asc(fileLists.name), asc(fileLists.id)),
  );

// GET /files: the files page's search, or every list when the caller names its company (SPEC §7).
export const listFileLists = async (
  deps: Deps,
  ctx: AuthContext,
  query: { searchParam: string; pageNumber: number; companyId?: number },
) => {
  if (query.companyId !== undefined)
    return { files: await listAllFileLists(deps, ctx), hasMore: false };
  const term = query.searchParam.trim();
  const rows = await deps.db
    .select()
    .from(fileLists)
    .where(
      ofCompany(fileLists, ctx, term ? ilike(fileLists.name, containsPattern(term)) : undefined),
    )
    .orderBy(asc(fileLists.name), asc(fileLists.id))
    .limit(FILES_PAGE_SIZE + 1)
    .offset((query.pageNumber - 1) * FILES_PAGE_SIZE);
  return {
    files: await withOptions(deps, rows.slice(0, FILES_PAGE_SIZE)),
    hasMore: rows.length > FILES_PAGE_SIZE,
  };
};

export const getFileList = (deps: Deps, ctx: AuthContext, id: number) => loadView(deps, ctx, id);

const optionValues = (
  ctx: AuthContext,
  fileListId: number,
  option: { name: string; mediaType?: string },
) => ({
  companyId: ctx.companyId,
  fileListId,
  name: option.name,
  mediaType: option.mediaType ?? '',
});

export const createFileList = async (deps: Deps, ctx: AuthContext, input: FileListInput) => {
  const id = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(fileLists)
      .values({ companyId: ctx.companyId, name: input.name, message: input.message })
      .returning({ id: fileLists.id });
    if (input.options.length)
      await tx
        .insert(fileListOptions)
        .values(input.options.map((option) => optionValues(ctx, row.id, option)));
    return row.id;
  });
  const view = await loadView(deps, ctx, id);
  emitFileList(deps, ctx, { action: 'create', files: view });
  return view;
};

const unknownOption = (field: string) =>
  new AppError('ERR_VALIDATION', 'This option is not part of the list', {
    fields: { [field]: ['ERR_NOT_FOUND'] },
  });

// Which of the list's options stay, and which go (with their files).
const planOptions = (
  existing: OptionRow[],
  wanted: NonNullable<FileListUpdateInput['options']>,
) => {
  const existingIds = new Set(existing.map((option) => option.id));
  const keptIds = new Set<number>();
  wanted.forEach((option, index) => {
    if (option.id === undefined) return;
    if (!existingIds.has(option.id) || keptIds.has(option.id))
      throw unknownOption(`options.${index}.id`);
    keptIds.add(option.id);
  });
  return {
    kept: wanted.filter((option) => option.id !== undefined),
    added: wanted.filter((option) => option.id === undefined),
    removed: existing.filter((option) => !keptIds.has(option.id)),
  };
};

export const updateFileList = async (
  deps: Deps,
  ctx: AuthContext,
  id: number,
  input: FileListUpdateInput,
) => {
  const removed = await deps.db.transaction(async (tx) => {
    await lockList(tx, ctx, id);
    await tx
      .update(fileLists)
      .set({ name: input.name, message: input.message })
      .where(ownedRow(fileLists, id, ctx));
    if (!input.options) return [];
    const plan = planOptions(await optionsOf(tx, [id]), input.options);
    if (plan.removed.length)
      await tx.delete(fileListOptions).where(
        inArray(
          fileListOptions.id,
          plan.removed.map((option) => option.id),
        ),
      );
    for (const option of plan.kept)
      await tx
        .update(fileListOptions)
        .set({
          name: option.name,
          ...(option.mediaType !== undefined && { mediaType: option.mediaType }),
        })
        .where(ownedRow(fileListOptions, option.id!, ctx));
    if (plan.added.length)
      await tx
        .insert(fileListOptions)
        .values(plan.added.map((option) => optionValues(ctx, id, option)));
    return plan.removed;
  });
  // Files go once the rows that named them are gone for good.
  await removeFiles(deps, ctx, removed);
  const view = await loadView(deps, ctx, id);
  emitFileList(deps, ctx, { action: 'update', files: view });
  return view;
};

export const deleteFileList = async (deps: Deps, ctx: AuthContext, id: number) => {
  const options = await deps.db.transaction(async (tx) => {
    await lockList(tx, ctx, id);
    const doomed = await optionsOf(tx, [id]);
    // The options go with the list (cascade).
    await tx.delete(fileLists).where(ownedRow(fileLists, id, ctx));
    return doomed;
  });
  await removeFiles(deps, ctx, options);
  emitFileList(deps, ctx, { action: 'delete', fileId: id });
};

// The company owning the list, checked before a file is read, so a refused upload stores nothing.
export const fileListOwner = async (deps: Deps, ctx: AuthContext, id: number) =>
  (await findList(deps, ctx, id)).companyId;

const optionIdField = z.coerce.number().int().positive();

// SPEC §7 form: the option of each file is the id field at the same position (fileId when the
// client sends only that); a name field there renames the option.
const targetsOf = (form: ReceivedForm) => {
  const ids = form.fields.id?.length ? form.fields.id : (form.fields.fileId ?? []);
  const field = form.fields.id?.length ? 'id' : 'fileId';
  if (ids.length !== form.files.length)
    throw new AppError('ERR_VALIDATION', 'Send one option id for each file', {
      fields: { [field]: ['One option id for each file'] },
    });
  const names = form.fields.name ?? [];
  return form.files.map((file, index) => {
    const id = optionIdField.safeParse(ids[index]);
    if (!id.success) throw unknownOption(`${field}.${index}`);
    const name = names[index]?.trim()
      ? fileListOptionSchema.shape.name.safeParse(names[index])
      : undefined;
    if (name && !name.success)
      throw new AppError('ERR_VALIDATION', 'Invalid option name', {
        fields: { [`name.${index}`]: name.error.issues.map((issue) => issue.message) },
      });
    return { id: id.data, file, name: name?.data };
  });
};

// POST /files/uploadList/{id}: each stored file becomes its option's file; replaced files go.
export const setOptionFiles = async (
  deps: Deps,
  ctx: AuthContext,
  id: number,
  form: ReceivedForm,
) => {
  const targets = targetsOf(form);
  if (new Set(targets.map((target) => target.id)).size !== targets.length)
    throw new AppError('ERR_VALIDATION', 'One file per option', {
      fields: { id: ['One file per option'] },
    });
  const replaced = await deps.db.transaction(async (tx) => {
    await lockList(tx, ctx, id);
    const byId = new Map((await optionsOf(tx, [id])).map((option) => [option.id, option]));
    const before = targets.map((target) => foundOr404(byId.get(target.id)));
    for (const target of targets)
      await tx
        .update(fileListOptions)
        .set({
          path: target.file.storedName,
          mediaType: target.file.mimetype,
          ...(target.name !== undefined && { name: target.name }),
        })
        .where(ownedRow(fileListOptions, target.id, ctx));
    return before;
  });
  await removeFiles(deps, ctx, replaced);
  const view = await loadView(deps, ctx, id);
  emitFileList(deps, ctx, { action: 'update', files: view });
  return view;
};
