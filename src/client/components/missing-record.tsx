/** What a record's screen shows when the record is not on this device (deleted, or never synced here). */
import { Heading, Stack, Text } from '@chakra-ui/react';

export function MissingRecord({ title, text, testId }: { title: string; text: string; testId: string }) {
  return (
    <Stack gap="2" py="8" data-testid={testId}>
      <Heading as="h2" size="xl">
        {title}
      </Heading>
      <Text color="fg.muted">{text}</Text>
    </Stack>
  );
}
