/**
 * Query keys shared by features: a feature that changes data another feature shows (deleting a space fills
 * the trash; restoring it refills the tree) invalidates these keys instead of importing the other feature.
 */
export const queryKeys = {
  user: ['user'] as const,
  organizations: {
    all: ['organizations'] as const,
    list: () => ['organizations', 'list'] as const,
    detail: (organizationId: string) => ['organizations', 'detail', organizationId] as const,
  },
  collections: {
    all: ['collections'] as const,
    list: (organizationId: string) => ['collections', 'list', organizationId] as const,
    detail: (collectionId: string) => ['collections', 'detail', collectionId] as const,
  },
  spaces: {
    all: ['spaces'] as const,
    list: (organizationId: string) => ['spaces', 'list', organizationId] as const,
    trash: (organizationId: string) => ['spaces', 'trash', organizationId] as const,
    detail: (spaceId: string) => ['spaces', 'detail', spaceId] as const,
  },
};
