/** Placeholder while a screen's code or data loads: a heading, a line of text and a row of cards. */
import { Box, SimpleGrid, Skeleton, SkeletonText, Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

export function PageSkeleton() {
  const { t } = useTranslation();
  return (
    <Stack gap="6" role="status" aria-busy="true" aria-label={t('skeleton.label')} p={{ base: '4', md: '6' }}>
      <Skeleton height="8" width={{ base: '70%', md: '40%' }} />
      <SkeletonText noOfLines={2} maxW="2xl" />
      <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="4">
        {[0, 1, 2, 3].map((i) => (
          <Box key={i} borderWidth="1px" borderRadius="l3" bg="bg.panel" p="5">
            <Skeleton height="10" width="10" borderRadius="l2" mb="4" />
            <SkeletonText noOfLines={3} />
            <Skeleton height="11" width="24" mt="5" />
          </Box>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
