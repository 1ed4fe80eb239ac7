/** Any unknown path, and every route whose screen is not built yet (spec part 2 §2.1, §8: 'Page not found 404'). */
import { Button, Heading, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { AppLogo } from '../../components/app-logo';

export function NotFoundScreen() {
  const { t } = useTranslation();
  return (
    <Stack as="main" minH="100dvh" align="center" justify="center" gap="5" px="6" textAlign="center" bg="bg.canvas">
      <AppLogo size={64} />
      <Heading as="h1" size="3xl">
        {t('notFound.title')}
      </Heading>
      <Text color="fg.muted" maxW="md">
        {t('notFound.text')}
      </Text>
      <Button asChild size="xl">
        <RouterLink to="/dashboard">{t('notFound.toDashboard')}</RouterLink>
      </Button>
    </Stack>
  );
}
