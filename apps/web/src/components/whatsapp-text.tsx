import { Box } from '@mui/material';
import { parseWhatsappFormat, type FormatNode } from '../lib/whatsapp-format';

const codeSx = {
  fontFamily: 'monospace',
  fontSize: '0.95em',
  bgcolor: 'action.hover',
  borderRadius: '4px',
  px: 0.5,
};

const render = (nodes: FormatNode[]) =>
  nodes.map((node, index) => {
    switch (node.kind) {
      case 'text':
        return node.text;
      case 'bold':
        return <strong key={index}>{render(node.children)}</strong>;
      case 'italic':
        return <em key={index}>{render(node.children)}</em>;
      case 'strike':
        return <s key={index}>{render(node.children)}</s>;
      case 'code':
        return (
          <Box key={index} component="code" sx={codeSx}>
            {node.text}
          </Box>
        );
      case 'monospace':
        return (
          <Box key={index} component="code" sx={{ fontFamily: 'monospace', fontSize: '0.95em' }}>
            {node.text}
          </Box>
        );
    }
  });

// A message body with WhatsApp's formatting drawn as elements; the text itself stays text (no HTML).
export const WhatsappText = ({ text }: { text: string }) => (
  <>{render(parseWhatsappFormat(text))}</>
);
