// The templates module's public surface: other modules import from '../templates' (this file) only.
export {
  findTemplate,
  needsHeaderFile,
  templateProblems,
  type TemplateRow,
  templateSendOf,
} from './templates.service';
