import { CoachNewPage } from './CoachFormPage';

export default CoachNewPage;
