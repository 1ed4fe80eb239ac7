/**
 * The file picker of the FAQ, solution and notification forms (spec part 1 §2.3, §5): a file button and a camera
 * button, a hint, the files picked so far with remove, and the message about skipped files. What the forms keep
 * apart (texts, test ids, the order of the buttons, image previews) comes in as props; the rules are in
 * src/client/lib/attachment-files.ts. Renders a fragment, so the parts stand in the form's own section stack.
 */
import { Box, Button, chakra, Flex, HStack, Image, Stack, Text } from '@chakra-ui/react';
import { Camera, Paperclip, X } from 'lucide-react';
import { useEffect, useId, useState, type ChangeEvent, type ReactNode } from 'react';
import { CAMERA_ACCEPT, UPLOAD_ACCEPT } from '../lib/attachment-files';

/** A picked file waiting to be saved; `key` tells two picks of the same name apart. */
export interface PickedEntry {
  key: string;
  file: File;
}

/** A file input laid over a button-looking label: the whole 44 px target opens the chooser or the camera. */
export function FilePicker({ label, icon, accept, capture, multiple, onFiles, testId }: { label: string; icon: ReactNode; accept: string; capture?: boolean; multiple?: boolean; onFiles(files: File[]): void; testId: string }) {
  const id = useId();
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    if (files.length > 0) onFiles(files);
  };
  return (
    <Box position="relative" _focusWithin={{ outline: '2px solid', outlineColor: 'brand.solid', outlineOffset: '2px', borderRadius: 'l2' }}>
      <chakra.label htmlFor={id} display="inline-flex" alignItems="center" gap="2" minH="11" px="4" borderWidth="1px" borderColor="border" borderRadius="l2" bg="bg.panel" fontWeight="medium" cursor="pointer">
        {icon}
        {label}
      </chakra.label>
      <chakra.input id={id} type="file" accept={accept} multiple={multiple} {...(capture ? { capture: 'environment' } : {})} onChange={onChange} position="absolute" inset="0" w="full" h="full" opacity={0} cursor="pointer" data-testid={testId} />
    </Box>
  );
}

/** An object URL for an image's preview, revoked when the file goes. */
function usePreviewUrl(file: File, enabled: boolean): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!enabled || !file.type.startsWith('image/')) return;
    const created = URL.createObjectURL(file);
    setUrl(created);
    return () => URL.revokeObjectURL(created);
  }, [file, enabled]);
  return url;
}

export interface PickedPreviews {
  /** The preview image's alt text for a file name. */
  alt(name: string): string;
  /** The test id on each picked file's row. */
  rowTestId: string;
}

function PickedRow({ file, removeLabel, previews, onRemove }: { file: File; removeLabel: string; previews: PickedPreviews | undefined; onRemove(): void }) {
  const preview = usePreviewUrl(file, previews !== undefined);
  return (
    <Flex align="center" gap={previews ? '3' : '2'} minH="11" data-testid={previews?.rowTestId}>
      {!previews ? (
        <Paperclip size={16} aria-hidden />
      ) : preview ? (
        <Image src={preview} alt={previews.alt(file.name)} w="20" h="16" flexShrink={0} objectFit="cover" borderRadius="l2" borderWidth="1px" bg="bg.muted" />
      ) : (
        <Flex w="20" h="16" flexShrink={0} align="center" justify="center" borderRadius="l2" borderWidth="1px" bg="bg.muted">
          <Paperclip size={20} aria-hidden />
        </Flex>
      )}
      <Text flex="1" minW="0" overflowWrap="anywhere">
        {file.name}
      </Text>
      <Button variant="ghost" minW="11" minH="11" aria-label={removeLabel} onClick={onRemove}>
        <X aria-hidden />
      </Button>
    </Flex>
  );
}

export interface AttachmentPickerProps {
  fileLabel: string;
  cameraLabel: string;
  hint: string;
  fileTestId: string;
  cameraTestId: string;
  /** The camera button before the file button (the notification form, where a photo is the usual case). */
  cameraFirst?: boolean;
  onFiles(files: File[]): void;
  files: readonly PickedEntry[];
  onRemove(key: string): void;
  removeLabel(name: string): string;
  /** A line above the picked files, and a test id on their list. */
  filesHeading?: string;
  filesTestId?: string;
  /** Image previews in the list of picked files instead of the paperclip. */
  previews?: PickedPreviews;
  /** The skipped files: an optional bold first line, then one line each (an empty list shows nothing). */
  rejectedTitle?: string;
  rejectedLines: readonly string[];
  rejectedTestId: string;
}

export function AttachmentPicker(props: AttachmentPickerProps) {
  const { files, onRemove, rejectedLines } = props;
  const fileButton = <FilePicker key="file" label={props.fileLabel} icon={<Paperclip size={18} aria-hidden />} accept={UPLOAD_ACCEPT} multiple onFiles={props.onFiles} testId={props.fileTestId} />;
  const cameraButton = <FilePicker key="camera" label={props.cameraLabel} icon={<Camera size={18} aria-hidden />} accept={CAMERA_ACCEPT} capture onFiles={props.onFiles} testId={props.cameraTestId} />;
  return (
    <>
      <HStack gap="3" wrap="wrap">
        {props.cameraFirst ? [cameraButton, fileButton] : [fileButton, cameraButton]}
      </HStack>
      <Text textStyle="sm" color="fg.muted">
        {props.hint}
      </Text>
      {files.length > 0 && (
        <Stack gap={props.previews ? '2' : '1'} data-testid={props.filesTestId}>
          {props.filesHeading && (
            <Text textStyle="sm" color="fg.muted">
              {props.filesHeading}
            </Text>
          )}
          {files.map(({ key, file }) => (
            <PickedRow key={key} file={file} removeLabel={props.removeLabel(file.name)} previews={props.previews} onRemove={() => onRemove(key)} />
          ))}
        </Stack>
      )}
      {rejectedLines.length > 0 && (
        <Box role="alert" borderWidth="1px" borderColor="border.error" borderRadius="l2" p="3" data-testid={props.rejectedTestId}>
          {props.rejectedTitle && (
            <Text color="fg.error" fontWeight="medium">
              {props.rejectedTitle}
            </Text>
          )}
          {rejectedLines.map((line, index) => (
            <Text key={index} color="fg.error" overflowWrap="anywhere">
              {line}
            </Text>
          ))}
        </Box>
      )}
    </>
  );
}
