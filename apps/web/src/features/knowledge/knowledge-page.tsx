import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  LinearProgress,
  List,
  ListItem,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import RefreshIcon from '@mui/icons-material/Refresh';
import SearchIcon from '@mui/icons-material/Search';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import UploadFileIcon from '@mui/icons-material/UploadFileOutlined';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { z } from 'zod';
import {
  can,
  KNOWLEDGE_DOCUMENT_MAX_BYTES,
  KNOWLEDGE_NAME_MAX,
  knowledgeExtensions,
  type KnowledgeDocument,
} from '@atendi/shared';
import { useCurrentSession } from '../../api/session';
import { errorText, toastError } from '../../api/toasts';
import { useDeleteConfirm } from '../../components/delete-confirm';
import { DialogForm, DialogFrame } from '../../components/dialog-frame';
import { useDialogSave } from '../../components/dialog-save';
import { FormText } from '../../components/form-text';
import { MessagePage } from '../../components/message-page';
import {
  actionsColumn,
  PagedTable,
  RowAction,
  type TableColumns,
} from '../../components/paged-table';
import { SelectField } from '../../components/select-field';
import { formatBytes } from '../../lib/bytes';
import { formatDateTime } from '../../lib/dates';
import {
  deleteDocument,
  searchKnowledge,
  useAddSource,
  useFileListOptions,
  useForgetDocument,
  useRefreshDocument,
  useRenameDocument,
  useReplaceDocument,
  useUploadDocument,
} from './knowledge.api';
import { useKnowledgeDocuments } from '../../api/queries/knowledge';

// Issue 40: the company's knowledge base, for its admins. Documents (PDF, Word, text, Markdown) and
// the company's quick messages and file lists, read and embedded in the background (status and
// progress live), renamed, replaced, read again or deleted; and a box to try a question and see the
// passages an AI agent would be given.

const ACCEPT = Object.keys(knowledgeExtensions).join(',');
const MAX_MB = KNOWLEDGE_DOCUMENT_MAX_BYTES / 1024 / 1024;

// What a document is, as the list says it.
const kindLabel = (doc: KnowledgeDocument) =>
  doc.source === 'upload'
    ? `knowledge.kinds.${doc.kind ?? 'txt'}`
    : `knowledge.sources.${doc.source}`;

const DocumentState = ({ doc }: { doc: KnowledgeDocument }) => {
  const { t } = useTranslation();
  const colors = {
    queued: 'default',
    processing: 'info',
    ready: 'success',
    failed: 'error',
  } as const;
  return (
    <Stack spacing={0.5} sx={{ alignItems: 'flex-start', minWidth: 160 }}>
      <Chip
        size="small"
        variant="outlined"
        color={colors[doc.status]}
        label={t(`knowledge.states.${doc.status}`)}
      />
      {doc.status === 'processing' && (
        <Box sx={{ width: '100%', maxWidth: 220 }}>
          <LinearProgress
            variant="determinate"
            value={doc.progress}
            aria-label={t('knowledge.progressOf', { name: doc.name })}
          />
          <Typography variant="caption" color="text.secondary">
            {t('knowledge.progress', { percent: doc.progress })}
          </Typography>
        </Box>
      )}
      {doc.status === 'failed' && doc.error && (
        <Typography variant="caption" color="error" sx={{ overflowWrap: 'anywhere' }}>
          {doc.error}
        </Typography>
      )}
    </Stack>
  );
};

const renameSchema = z.object({
  name: z.string().trim().min(1, 'validation.required').max(KNOWLEDGE_NAME_MAX),
});

const RenameForm = ({ doc }: { doc: KnowledgeDocument }) => {
  const { t } = useTranslation();
  const rename = useRenameDocument();
  const form = useForm<z.infer<typeof renameSchema>>({
    resolver: zodResolver(renameSchema),
    defaultValues: { name: doc.name },
  });
  const save = useDialogSave(form, {
    save: (values) => rename.mutateAsync({ id: doc.id, name: values.name }),
    savedText: t('knowledge.renamed'),
  });
  return (
    <DialogForm title={t('knowledge.renameTitle')} {...save} submitLabel={t('common.save')}>
      <FormText form={form} name="name" label={t('knowledge.columns.name')} autoFocus />
    </DialogForm>
  );
};

const QUICK_MESSAGES = 'quick-messages';
const sourceSchema = z.object({ source: z.string().min(1, 'validation.required') });

// The company's quick messages, or one of its file lists.
const SourceForm = ({ taken }: { taken: KnowledgeDocument[] }) => {
  const { t } = useTranslation();
  const add = useAddSource();
  const lists = useFileListOptions(true);
  const hasAnswers = taken.some((doc) => doc.source === 'quick-messages');
  const listsTaken = new Set(taken.map((doc) => doc.fileListId));
  const form = useForm<z.infer<typeof sourceSchema>>({
    resolver: zodResolver(sourceSchema),
    defaultValues: { source: '' },
  });
  const save = useDialogSave(form, {
    save: (values) =>
      add.mutateAsync(
        values.source === QUICK_MESSAGES
          ? { type: 'quick-messages' }
          : { type: 'file-list', fileListId: Number(values.source) },
      ),
    savedText: t('knowledge.sourceAdded'),
    codes: { ERR_KNOWLEDGE_SOURCE_EXISTS: 'source' },
  });
  return (
    <DialogForm title={t('knowledge.addSourceTitle')} {...save} submitLabel={t('knowledge.add')}>
      <Stack spacing={2}>
        <Typography variant="body2" color="text.secondary">
          {t('knowledge.sourceHint')}
        </Typography>
        <SelectField control={form.control} name="source" label={t('knowledge.source')}>
          <MenuItem value={QUICK_MESSAGES} disabled={hasAnswers}>
            {t('knowledge.sources.quick-messages')}
          </MenuItem>
          {(lists.data ?? []).map((list) => (
            <MenuItem key={list.id} value={String(list.id)} disabled={listsTaken.has(list.id)}>
              {t('knowledge.fileListNamed', { name: list.name })}
            </MenuItem>
          ))}
        </SelectField>
      </Stack>
    </DialogForm>
  );
};

// "Try it": the passages a question finds, with their document, page and score.
const SearchBox = () => {
  const { t } = useTranslation();
  const [question, setQuestion] = useState('');
  const search = useMutation({ mutationFn: searchKnowledge, meta: { silent: true } });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (question.trim()) search.mutate(question.trim());
  };
  const result = search.data;
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Stack
        spacing={2}
        component="form"
        onSubmit={submit}
        role="search"
        aria-label={t('knowledge.tryIt')}
      >
        <Typography variant="h6" component="h2">
          {t('knowledge.tryIt')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
          <TextField
            label={t('knowledge.question')}
            placeholder={t('knowledge.questionPlaceholder')}
            value={question}
            onChange={(event) => setQuestion(event.target.value)}
            slotProps={{ htmlInput: { maxLength: 500 } }}
            fullWidth
            size="small"
          />
          <Button
            type="submit"
            variant="contained"
            startIcon={<SearchIcon />}
            disabled={!question.trim() || search.isPending}
          >
            {t('knowledge.search')}
          </Button>
        </Stack>
        {search.isError && <Alert severity="error">{errorText(search.error)}</Alert>}
        {result && !result.semantic && <Alert severity="info">{t('knowledge.wordsOnly')}</Alert>}
        {result && result.passages.length === 0 && (
          <Typography color="text.secondary">{t('knowledge.noPassages')}</Typography>
        )}
        {result && result.passages.length > 0 && (
          <List aria-label={t('knowledge.passages')} disablePadding>
            {result.passages.map((passage, index) => (
              <ListItem key={passage.chunkId} divider disableGutters sx={{ display: 'block' }}>
                <Stack
                  direction="row"
                  spacing={1}
                  sx={{ alignItems: 'baseline', flexWrap: 'wrap' }}
                >
                  <Typography sx={{ fontWeight: 600 }}>
                    {index + 1}. {passage.documentName}
                  </Typography>
                  {passage.page !== null && (
                    <Typography variant="body2" color="text.secondary">
                      {t('knowledge.page', { page: passage.page })}
                    </Typography>
                  )}
                  <Typography variant="caption" color="text.secondary">
                    {t('knowledge.score', {
                      score: passage.score.toFixed(4),
                      similarity: passage.similarity === null ? '—' : passage.similarity.toFixed(2),
                    })}
                  </Typography>
                </Stack>
                <Typography
                  variant="body2"
                  sx={{
                    whiteSpace: 'pre-line',
                    display: '-webkit-box',
                    WebkitLineClamp: 5,
                    WebkitBoxOrient: 'vertical',
                    overflow: 'hidden',
                  }}
                >
                  {passage.text}
                </Typography>
              </ListItem>
            ))}
          </List>
        )}
      </Stack>
    </Paper>
  );
};

// The kind stays after closing, so the dialog does not change while it fades out.
type Dialog = {
  open: boolean;
  kind: 'rename' | 'source';
  doc: KnowledgeDocument | null;
  session: number;
};

const KnowledgeManager = () => {
  const { t, i18n } = useTranslation();
  const documents = useKnowledgeDocuments();
  const rows = documents.data?.documents ?? [];
  const upload = useUploadDocument();
  const replace = useReplaceDocument();
  const refresh = useRefreshDocument();
  const forget = useForgetDocument();
  const uploadInput = useRef<HTMLInputElement>(null);
  const replaceInput = useRef<HTMLInputElement>(null);
  const [replacing, setReplacing] = useState<KnowledgeDocument | null>(null);
  const [dialog, setDialog] = useState<Dialog>({
    open: false,
    kind: 'source',
    doc: null,
    session: 0,
  });
  const open = (kind: Dialog['kind'], doc: KnowledgeDocument | null = null) =>
    setDialog((current) => ({ open: true, kind, doc, session: current.session + 1 }));
  const close = () => setDialog((current) => ({ ...current, open: false }));

  // The chosen file goes at once; a refusal (type, size, storage) is said in a toast.
  const chosen = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    return file;
  };
  const onUpload = (event: ChangeEvent<HTMLInputElement>) => {
    const file = chosen(event);
    if (file)
      upload.mutate(file, {
        onSuccess: () => toast.success(t('knowledge.uploaded', { name: file.name })),
        onError: toastError,
      });
  };
  const onReplace = (event: ChangeEvent<HTMLInputElement>) => {
    const file = chosen(event);
    if (file && replacing)
      replace.mutate(
        { id: replacing.id, file },
        {
          onSuccess: () => toast.success(t('knowledge.replaced', { name: replacing.name })),
          onError: toastError,
        },
      );
  };

  const confirmDelete = useDeleteConfirm({
    remove: (doc: KnowledgeDocument) => deleteDocument(doc.id),
    onDeleted: (doc) => forget(doc.id),
    deletedText: t('knowledge.deleted'),
    title: (doc) => t('knowledge.deleteTitle', { name: doc.name }),
    message: () => t('knowledge.deleteText'),
    confirmLabel: t('knowledge.delete'),
  });

  const columns: TableColumns<KnowledgeDocument> = [
    {
      header: t('knowledge.columns.name'),
      cell: (doc) => (
        <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
          <span>{doc.name}</span>
          <Typography variant="caption" color="text.secondary">
            {[
              t(kindLabel(doc)),
              doc.size === null ? null : formatBytes(doc.size, i18n.language),
              formatDateTime(doc.updatedAt),
            ]
              .filter(Boolean)
              .join(' · ')}
          </Typography>
        </Stack>
      ),
      sx: { fontWeight: 500 },
    },
    { header: t('knowledge.columns.state'), cell: (doc) => <DocumentState doc={doc} /> },
    { header: t('knowledge.columns.passages'), cell: (doc) => doc.chunks, align: 'center' },
    actionsColumn(
      t('knowledge.columns.actions'),
      (doc) => (
        <>
          <RowAction
            title={t('knowledge.rename')}
            label={t('knowledge.renameOf', { name: doc.name })}
            icon={<EditOutlinedIcon fontSize="small" />}
            onClick={() => open('rename', doc)}
          />
          {doc.source === 'upload' && (
            <RowAction
              title={t('knowledge.replace')}
              label={t('knowledge.replaceOf', { name: doc.name })}
              icon={<SwapHorizIcon fontSize="small" />}
              disabled={replace.isPending}
              onClick={() => {
                setReplacing(doc);
                replaceInput.current?.click();
              }}
            />
          )}
          <RowAction
            title={t('knowledge.refresh')}
            label={t('knowledge.refreshOf', { name: doc.name })}
            icon={<RefreshIcon fontSize="small" />}
            disabled={doc.status === 'queued' || doc.status === 'processing'}
            onClick={() => refresh.mutate(doc.id, { onError: toastError })}
          />
          <RowAction
            title={t('knowledge.delete')}
            label={t('knowledge.deleteOf', { name: doc.name })}
            icon={<DeleteOutlineIcon fontSize="small" />}
            onClick={() => confirmDelete.ask(doc)}
          />
        </>
      ),
      170,
    ),
  ];

  return (
    <Stack spacing={3}>
      <PagedTable
        title={t('knowledge.title')}
        stackBelow="md"
        toolbar={
          // On a narrow phone the two buttons go one under the other rather than past the edge.
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            <Button variant="outlined" startIcon={<AddIcon />} onClick={() => open('source')}>
              {t('knowledge.addSource')}
            </Button>
            <Button
              variant="contained"
              startIcon={<UploadFileIcon />}
              disabled={upload.isPending}
              onClick={() => uploadInput.current?.click()}
            >
              {t('knowledge.upload')}
            </Button>
          </Stack>
        }
        notice={
          <Stack spacing={1}>
            <Typography variant="body2" color="text.secondary">
              {t('knowledge.intro', { max: MAX_MB })}
            </Typography>
            {documents.isError && <Alert severity="error">{errorText(documents.error)}</Alert>}
          </Stack>
        }
        list={{ rows, isPending: documents.isPending, isFetching: documents.isPending }}
        columns={columns}
        emptyText={t('knowledge.empty')}
      />
      <SearchBox />
      <input
        ref={uploadInput}
        type="file"
        hidden
        accept={ACCEPT}
        aria-label={t('knowledge.upload')}
        data-testid="knowledge-upload-input"
        onChange={onUpload}
      />
      <input
        ref={replaceInput}
        type="file"
        hidden
        accept={ACCEPT}
        aria-label={t('knowledge.replace')}
        data-testid="knowledge-replace-input"
        onChange={onReplace}
      />
      <DialogFrame open={dialog.open} onClose={close} sessionKey={dialog.session} maxWidth="xs">
        {dialog.kind === 'rename' && dialog.doc && <RenameForm doc={dialog.doc} />}
        {dialog.kind === 'source' && <SourceForm taken={rows} />}
      </DialogFrame>
      {confirmDelete.dialog}
    </Stack>
  );
};

// Admins only (the route already needs the plan's useOpenAi); other profiles get a notice.
export const KnowledgePage = () => {
  const { t } = useTranslation();
  const { user } = useCurrentSession();
  if (!can(user, 'knowledge:manage'))
    return (
      <MessagePage
        title={t('knowledge.noPermissionTitle')}
        text={t('knowledge.noPermissionText')}
      />
    );
  return <KnowledgeManager />;
};
