/**
 * Which utterances belong to which note section: keyword and phrase rules over the lowercase words
 * of each utterance. Deliberately plain (an emulator's rules, easy to read and to change); an
 * utterance may serve more than one section, as a clinician's note often repeats a fact.
 */
import type { SectionName } from '../../src/shared/service';

export interface SectionRule {
  /** An utterance is relevant when this matches its words (lowercase, single spaces)... */
  include: RegExp;
  /** ...unless this matches too (it belongs elsewhere). */
  exclude?: RegExp;
  /** Keep only the first N relevant utterances (a chief complaint is a line, not a history). */
  max?: number;
}

const COMPLAINT =
  'pain|ache|aches|headache|headaches|cough|fever|rash|sore|swollen|swelling|dizzy|tired|nausea|burning';

const ASSESSMENT =
  /\b(i think|most likely|likely|looks like|sounds like|consistent with|concerned|could be|may be|rule out|diagnos\w*|not well controlled|under (good )?control|infection|strain|reflux|pneumonia|viral)\b/;

const PLAN =
  /\b(we will|we'll|i('m| am) going to (start|order|refer|send|prescribe|give|increase|check|get)|i want (to get|you to)|i'd like|let's (start|get|do)|start (you on|an?)|prescri\w*|refer\w*|order|follow up|come back|recheck|see you (back )?in|call us|emergency room|x-ray|blood work|ekg|urine sample|physical therapy|continue|increase|stop taking|take (one|two|a) (tablet|pill|puff)s?|drink plenty|get some rest|ice on|elevated|quit smoking|cut down)\b/;

const MEDICATIONS =
  /\b(medications?|medicines?|pills?|tablets?|dose|milligrams?|inhaler|prescription|refill|aspirin|ibuprofen|tylenol|acetaminophen|advil|motrin|insulin|albuterol|amoxicillin|lisinopril|metformin|statin|atorvastatin|zoloft|prozac|sertraline|vitamin \w+|multivitamin|supplements?|water pill|fish oil|i take|i('m| am) taking)\b/;

export const SECTION_RULES: Record<SectionName, SectionRule> = {
  CHIEF_COMPLAINT: {
    include: new RegExp(
      `\\b(what brings you|brought you|what can i do for you|what seems to be|how can i help|chief complaint|i('m| am) here (for|because|about)|i came in (for|because|about)|i('ve| have) been (having|feeling|getting)|i('ve| have) (had )?(a |an |some |this )?(\\w+ )?(${COMPLAINT})|my \\w+ (hurts|has been (hurting|bothering)|is (swollen|hurting)))\\b`,
    ),
    exclude: /\b(any|allerg\w*)\b/,
    max: 2,
  },
  HISTORY_OF_PRESENT_ILLNESS: {
    include:
      /\b(started|began|ago|since|for the past|for about|worse|better|sharp|dull|burning|throbbing|comes and goes|goes down|spreads|radiat\w*|out of ten|episodes?|each time|constant|suddenly|gradually|fever|chills|sweats|nause\w*|vomit\w*|short of breath|shortness of breath|dizz\w*|lightheaded|tried|helps?|makes it|happened|fell|twisted|lifting)\b/,
    exclude:
      /\b(allerg\w*|smok\w*|alcohol|prescri\w*|follow up|come back|emergency room|call us|drink plenty)\b/,
  },
  PHYSICAL_EXAM: {
    include:
      /\b(lungs?|breath sounds|heart (has|sounds|rate)|murmurs?|rhythm|abdomen|abdominal|tender\w*|swelling|swollen|edema|pupils?|reflexes|strength|range of motion|gait|skin is|rash is|wound is|ear drum|ears|tonsils|throat is|neck is|exam|i hear|blood pressure is|pulse|temperature|oxygen saturation|oxygen level|respiratory rate|weight|alert and oriented|capillary refill|distress|appears)\b/,
    exclude: /\b(allerg\w*|i('ve| have) (been|had)|my (blood pressure|weight)|at home)\b/,
  },
  ASSESSMENT_AND_PLAN: { include: new RegExp(`${ASSESSMENT.source}|${PLAN.source}`) },
  MEDICATIONS: { include: MEDICATIONS, exclude: /\ballerg\w*|reaction\b/ },
  ALLERGIES: { include: /\b(allerg\w*|hives|reactions?|swelled up|no known drug|broke out|breaks out)\b/ },
  SOCIAL_HISTORY: {
    include:
      /\b(smok\w*|cigarettes?|tobacco|vap(e|ing)|packs? a day|alcohol|drinks?|drinking|beers?|wine|liquor|drugs|marijuana|cannabis|work (in|at|as)|for work|i('m| am) a (teacher|nurse|student|\w+er)|retired|job|live (with|alone)|married|exercise|diet|fast food|safe at home|sexually active)\b/,
    exclude: /\b(fluids|allerg\w*|drug allergies|sulfa drugs)\b/,
  },
  REVIEW_OF_SYSTEMS: {
    include:
      /\b(any (\w+ )?(headaches?|vision|chest pain|palpitations|cough|wheezing|abdominal|nausea|diarrhea|urine|rash\w*|numbness|weakness|swelling|night sweats|weight loss|dizziness|fever|chills|problems)|no (\w+ )?(headaches?|chest pain|palpitations|wheezing|abdominal pain|nausea|vomiting|diarrhea|burning|blood|rash|numbness|weakness|swelling|night sweats|weight loss|fever|chills|dizziness|shortness of breath)|denies|review of systems|negative)\b/,
  },
  ASSESSMENT: { include: ASSESSMENT },
  PLAN: { include: PLAN },
};
