import { CampaignNewPage } from './CatalogFormPage';

export default CampaignNewPage;
